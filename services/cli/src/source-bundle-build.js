// The CLI's `build` (`npx turbo build`): the source bundle (src/source-bundle.js) built now, and V8's
// compiled code of what each bundled command loads kept, instead of by the first command after a
// checkout or `npm ci`, which paid for both inside its own run: `crumbs replay --after <last seq>
// --publish replay` took 0.80-1.66 s then against 0.28-0.38 s warm (load 5-8). A source saved
// later is still rebuilt by the next command, as before. Plain JavaScript, like the bundle's code.
import { COMMANDS } from "./commands/catalog.js";
import { bundledMain, keepCompiledCode } from "./source-bundle.js";

// Built (or found fresh) first: a rebuild empties the compiled code's folder, which must then be
// filled after it.
await bundledMain(COMMANDS[0].name);
keepCompiledCode();
// What bin/crumbs.js loads before the bundle, so their compiled code is kept too.
await Promise.all([import("zod"), import("zod/mini"), import("nats")]);
const quiet = () => {};
for (const { name } of COMMANDS) {
  const entry = await bundledMain(name);
  if (!entry) continue;
  // A command's --help loads its module and what that imports, and runs nothing else.
  const { run } = await import(entry.href);
  await run([name, "--help"], { env: {}, cwd: process.cwd(), out: quiet, err: quiet, stdin: process.stdin, fetch: globalThis.fetch });
}
