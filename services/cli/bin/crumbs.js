#!/usr/bin/env node
// The workspaces ship TypeScript sources; tsx compiles them on the fly, or a bundle the CLI keeps
// fresh itself (src/source-bundle.js), so there is no separate build step between `git clone` and a
// running stack. The Docker image runs JavaScript instead:
// its build (docker/build-dist.mjs) compiles src/ to dist/, and then no TypeScript loader is
// registered at all. `--help` and `--version` are answered before either (src/commands/catalog.js says why).
import { existsSync } from "node:fs";
import { topLevelAnswer } from "../src/commands/catalog.js";

const argv = process.argv.slice(2);
const answer = topLevelAnswer(argv[0]);
const built = new URL("../dist/main.js", import.meta.url);
if (answer) {
  (answer.stream === "out" ? process.stdout : process.stderr).write(`${answer.text}\n`);
  process.exitCode = answer.code;
} else if (existsSync(built)) {
  const { main } = await import(built.href);
  await main(argv);
} else {
  // The sources compiled into one bundle, rebuilt when they change (src/source-bundle.js), for the
  // commands it runs alone; the others, and CRUMBS_DEBUG (stack traces in the sources' lines), through tsx.
  const bundle = process.env.CRUMBS_DEBUG ? undefined : await import("../src/source-bundle.js");
  bundle?.keepCompiledCode();
  // Every command loads zod and nats: imported before tsx registers, their files load through
  // Node's own loader rather than through tsx's hooks, which cost zod alone about 100 ms more
  // (150 against 45 ms); the TypeScript sources then get these same module instances.
  await Promise.all([import("zod"), import("zod/mini"), import("nats")]);
  const bundled = await bundle?.bundledMain(argv[0]);
  if (!bundled) {
    const { register } = await import("tsx/esm/api");
    register();
  }
  const { main } = await import(bundled?.href ?? "../src/main.ts");
  await main(argv);
}
