// The CLI's TypeScript sources compiled into one JavaScript bundle (esbuild, split per command),
// kept under node_modules/.cache/crumbs-cli and rebuilt whenever a file it was built from
// changes, so a clone still runs its sources with no build step to forget. Through tsx, start-up
// loads some 100 TypeScript modules one by one through its hooks: `crumbs replay` of one event
// took 440 ms of CPU, against 270 ms from the bundle (8 alternating runs, load 9.7). Plain
// JavaScript: it runs before any TypeScript loader. bin/crumbs.js falls back to tsx when this
// returns nothing (no esbuild, a read-only folder, a build error tsx will then report).
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire, enableCompileCache } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BUNDLED_PACKAGES, servedCommands, staysExternal, stillFresh } from "./source-bundle-plan.js";

const cliDir = resolve(fileURLToPath(new URL("..", import.meta.url)));
const cacheDir = join(cliDir, "node_modules", ".cache", "crumbs-cli");
const currentFile = join(cacheDir, "current.json");
/**
 * A build replaced by a newer one is removed at the next rebuild after that, and only once it is
 * this old: a process started from it loads its command's chunk within moments of starting.
 */
const KEEP_OLD_MS = 10 * 60_000;

const statOf = (path) => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

/**
 * V8's compiled code of the modules loaded from here on (zod, nats, the bundle's chunks) kept
 * beside the bundle, checked by Node against each file's content: 220 against 260 ms of CPU for
 * `crumbs replay` of one event (10 alternating runs, load 11).
 */
export function keepCompiledCode() {
  enableCompileCache(join(cacheDir, "v8"));
}

/**
 * The bundle's main module when it is fresh (or was just rebuilt) and runs `command` without
 * TypeScript; undefined otherwise, and the caller runs the sources through tsx.
 */
export async function bundledMain(command) {
  let current;
  try {
    current = JSON.parse(readFileSync(currentFile, "utf8"));
  } catch {
    current = undefined;
  }
  if (!current || !stillFresh(current.inputs, statOf)) current = await rebuild(current?.dir).catch(() => undefined);
  if (!current?.commands.includes(command)) return undefined;
  return pathToFileURL(join(cacheDir, current.dir, "main.js"));
}

async function rebuild(previous) {
  const { build } = await import("esbuild");
  const started = Date.now();
  const dir = `build-${started}-${process.pid}`;
  // A bundled package with a node_modules of its own: the bundle is recorded, and runs nothing.
  let unshared = false;
  const outdir = join(cacheDir, dir);
  const result = await build({
    absWorkingDir: cliDir,
    entryPoints: ["src/main.ts"],
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: `node${process.versions.node}`,
    // Error classes name themselves from new.target.name: bundling must not rename them.
    keepNames: true,
    metafile: true,
    logLevel: "silent",
    plugins: [
      {
        name: "crumbs-externals",
        setup(b) {
          const sideEffectFree = inBundledPackages();
          // Externals are imported from the bundle's folder, inside the CLI's package: the same
          // files as from the sources while the workspaces share one node_modules (npm's hoisting).
          b.onResolve({ filter: /^[^./]/ }, (a) => {
            if (!staysExternal(a.path)) return undefined;
            unshared ||= ownNodeModules(a.resolveDir) !== undefined;
            return { path: a.path, external: true };
          });
          // The bundled packages' modules run nothing on import that another module relies on, so
          // one whose exports a command never uses is left out, and with it what it imports:
          // `replay` loaded handlebars (the llm view's templates, ~50 ms of its start-up) through
          // @crumbs/schemas' index without rendering anything.
          b.onResolve({ filter: /./ }, async (a) => {
            if (a.pluginData === RESOLVING || staysExternal(a.path)) return undefined;
            const found = await b.resolve(a.path, { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, pluginData: RESOLVING });
            if (found.errors.length > 0 || found.external || !sideEffectFree(found.path)) return undefined;
            return { path: found.path, sideEffects: false };
          });
          // The catalog reads the CLI's package.json next to itself: it is loaded from where it is.
          b.onResolve({ filter: /(^|\/)catalog\.js$/ }, (a) => ({ path: pathToFileURL(resolve(a.resolveDir, a.path)).href, external: true }));
        },
      },
    ],
  });
  const commands = unshared ? [] : servedCommands(result.metafile, relative(cliDir, join(outdir, "main.js")), "src/commands");
  const current = { dir, commands, inputs: inputsOf(Object.keys(result.metafile.inputs).map((p) => resolve(cliDir, p))) };
  // A file saved while the build read it may be in the bundle half-changed: use it once, record nothing.
  const now = Date.now();
  if (current.inputs.some(([, mtimeMs]) => mtimeMs >= started && mtimeMs <= now)) return current;
  const tmp = `${currentFile}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify(current));
  renameSync(tmp, currentFile);
  dropOldBuilds([dir, previous]);
  // Compiled code of replaced chunks is never used again; the next runs fill the cache anew.
  rmSync(join(cacheDir, "v8"), { recursive: true, force: true });
  return current;
}

/**
 * What a build depends on, each with its mtime and size: the source files, the package.json and
 * tsconfig.json of each package they come from (exports, compiler options), the base tsconfig,
 * esbuild's version and this file with its plan.
 */
function inputsOf(sources) {
  const paths = new Set(sources);
  for (const file of sources) {
    for (let d = dirname(file); d !== dirname(d); d = dirname(d)) {
      if (!statOf(join(d, "package.json"))) continue;
      paths.add(join(d, "package.json"));
      if (statOf(join(d, "tsconfig.json"))) paths.add(join(d, "tsconfig.json"));
      break;
    }
  }
  paths.add(resolve(cliDir, "../../tsconfig.base.json"));
  paths.add(createRequire(import.meta.url).resolve("esbuild/package.json"));
  paths.add(fileURLToPath(import.meta.url));
  paths.add(fileURLToPath(new URL("./source-bundle-plan.js", import.meta.url)));
  return [...paths].filter((p) => statOf(p)).map((p) => {
    const s = statSync(p);
    return [p, s.mtimeMs, s.size];
  });
}

/** A node_modules folder of a bundled package's own (not the CLI's, not the shared root's), if it has one. */
function ownNodeModules(dir) {
  for (let d = dir; d !== dirname(d); d = dirname(d)) {
    if (!statOf(join(d, "package.json"))) continue;
    if (d === cliDir || d.includes("/node_modules/")) return undefined;
    return statOf(join(d, "node_modules")) ? join(d, "node_modules") : undefined;
  }
  return undefined;
}

const RESOLVING = Symbol("resolving");

/** Whether a path is in a bundled package's entry folder (its src/), found as Node resolves the package: only when building. */
function inBundledPackages() {
  const dirs = BUNDLED_PACKAGES.map((p) => `${dirname(createRequire(import.meta.url).resolve(p))}/`);
  return (path) => dirs.some((d) => path.startsWith(d));
}

function dropOldBuilds(keep) {
  for (const name of readdirSync(cacheDir)) {
    if (!name.startsWith("build-") || keep.includes(name)) continue;
    const s = statOf(join(cacheDir, name));
    if (s && Date.now() - s.mtimeMs > KEEP_OLD_MS) rmSync(join(cacheDir, name), { recursive: true, force: true });
  }
}
