// The image's build step (docker/Dockerfile): compiles the workspaces the api, runner and CLI run
// from src/ to JavaScript in dist/, then points each package.json's exports (and the CLI's bin) at
// dist/, so the services start with plain `node` and no TypeScript loader. Only for the image: in a
// clone the workspaces export their sources and tsx runs them (services/cli/bin/crumbs.js says why).
//   node docker/build-dist.mjs DIR...     (workspace folders, from the repository root)
// Types are checked by `npm test`, not here (--noCheck): the build only transpiles, in seconds.
// Files in src/ that are not TypeScript (the CLI's catalog.js, the relay's boot file) are copied.
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const dirs = process.argv.slice(2);
if (!dirs.length) throw new Error("usage: node docker/build-dist.mjs DIR...");

/** `./src/<path>.ts` -> `./dist/<path>.js`; a file outside src/ (the dashboard's index.ts) -> its .js. */
const toDist = (target) => target.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, ".js");

for (const dir of dirs) {
  const pkgFile = join(dir, "package.json");
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
  const fromSrc = Object.values(pkg.exports ?? {}).some((t) => String(t).startsWith("./src/"));
  const config = join(dir, "tsconfig.dist.json");
  writeFileSync(
    config,
    JSON.stringify({
      extends: "./tsconfig.json",
      compilerOptions: {
        noEmit: false,
        noCheck: true,
        declaration: false,
        rewriteRelativeImportExtensions: true,
        ...(fromSrc ? { outDir: "dist", rootDir: "src" } : { outDir: ".", rootDir: "." }),
      },
      include: fromSrc ? ["src"] : Object.values(pkg.exports).map((t) => String(t).slice(2)),
      exclude: ["**/*.test.ts", "**/*.fixture.ts", "**/fixtures/**"],
    }),
  );
  if (fromSrc) rmSync(join(dir, "dist"), { recursive: true, force: true });
  execFileSync(process.execPath, [tsc, "-p", config], { stdio: "inherit" });
  rmSync(config);
  if (fromSrc)
    for (const entry of readdirSync(join(dir, "src"), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || /\.ts$/.test(entry.name)) continue;
      const from = join(entry.parentPath, entry.name);
      cpSync(from, from.replace(join(dir, "src"), join(dir, "dist")));
    }
  pkg.exports = Object.fromEntries(Object.entries(pkg.exports ?? {}).map(([key, target]) => [key, toDist(String(target))]));
  writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
}
