// Packs the published libraries as npm tarballs a plain Node project can install:
//   npm run pack:sdk                      # builds, then writes the tarballs into ./packed/
//   node scripts/pack-libraries.mjs --out DIR [--no-build]
// In this repository the workspaces export their TypeScript sources (tsx and vitest run them
// without a build) and are private. The published package is written into a staging folder
// instead: dist/ (JavaScript and declarations from build-library.mjs), the README, and a
// package.json whose exports point at dist/ and whose workspace dependencies name the version.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const LIBRARIES = ["schemas", "agents/sdk"];
const root = resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { out: { type: "string", default: "packed" }, "no-build": { type: "boolean", default: false } } });
const out = resolve(values.out);
mkdirSync(out, { recursive: true });

const manifests = Object.fromEntries(
  LIBRARIES.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
    return [pkg.name, { dir, pkg }];
  }),
);

/** `./src/<path>.ts` -> `{types: ./dist/<path>.d.ts, default: ./dist/<path>.js}` */
function distExport(target) {
  const base = target.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, "");
  return { types: `${base}.d.ts`, default: `${base}.js` };
}

const tarballs = [];
for (const { dir, pkg } of Object.values(manifests)) {
  if (!values["no-build"]) execFileSync(process.execPath, [join(root, "scripts/build-library.mjs")], { cwd: join(root, dir), stdio: "inherit" });
  const stage = mkdtempSync(join(tmpdir(), "crumbs-pack-"));
  try {
    cpSync(join(root, dir, "dist"), join(stage, "dist"), { recursive: true });
    cpSync(join(root, dir, "README.md"), join(stage, "README.md"));
    const dependencies = Object.fromEntries(
      Object.entries(pkg.dependencies ?? {}).map(([name, range]) => [name, manifests[name] ? manifests[name].pkg.version : range]),
    );
    const published = {
      name: pkg.name,
      version: pkg.version,
      description: pkg.description,
      type: "module",
      engines: { node: ">=22.12" },
      exports: Object.fromEntries(Object.entries(pkg.exports).map(([key, target]) => [key, distExport(target)])),
      files: ["dist", "README.md"],
      dependencies,
    };
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
    const [packed] = JSON.parse(execFileSync("npm", ["pack", stage, "--pack-destination", out, "--json"], { encoding: "utf8" }));
    tarballs.push(join(out, packed.filename));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
console.log(tarballs.join("\n"));
