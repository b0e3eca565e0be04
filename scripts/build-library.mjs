// Builds a library of this repository (schemas, agents/sdk) to JavaScript and
// declarations in its dist/, for publishing (see pack-libraries.mjs). Run from the package folder:
//   node ../../scripts/build-library.mjs
// tsc rewrites the relative `.ts` imports of the emitted JavaScript to `.js`
// (rewriteRelativeImportExtensions) but keeps them in the declarations; they are rewritten here,
// so a consumer's TypeScript reads the declarations without allowImportingTsExtensions.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
rmSync("dist", { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });

const RELATIVE_TS = /(from\s+|import\(\s*)(["'])(\.{1,2}\/[^"']+)\.ts\2/g;
for (const entry of readdirSync("dist", { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(RELATIVE_TS, (_, lead, quote, path) => `${lead}${quote}${path}.js${quote}`);
  if (fixed !== text) writeFileSync(file, fixed);
}
