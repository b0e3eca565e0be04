// What the CLI's source bundle (bin/source-bundle.js) holds and which commands it may run, from
// esbuild's metafile: pure, in plain JavaScript because it runs before any TypeScript loader.
// Types: source-bundle-plan.d.ts.

/**
 * Workspace packages compiled into the bundle: pure code that finds nothing by its own file's
 * path. The API, the runner and the others locate files and workers from import.meta.url, so
 * they stay where they are and a command that loads one runs through tsx as before.
 */
export const BUNDLED_PACKAGES = ["@crumbs/schemas", "@crumbs/agent-sdk"];

/** The package a bare import names (`@scope/name/sub` -> `@scope/name`), or undefined for a relative or absolute one. */
export function packageOf(specifier) {
  if (/^[./]/.test(specifier) || /^[a-z]+:/i.test(specifier)) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Whether an import stays outside the bundle (loaded by Node at run time). */
export const staysExternal = (specifier) => {
  const pkg = packageOf(specifier);
  return pkg !== undefined && !BUNDLED_PACKAGES.includes(pkg);
};

/** An external import Node cannot load without a TypeScript loader: another workspace package or a .ts file. */
const needsTypeScript = (path) => path.startsWith("@crumbs/") || /\.[cm]?tsx?$/.test(path);

/**
 * The commands the bundle runs alone: those whose code (the entry's chunk and what it imports
 * statically, the command's chunk and everything it imports, dynamically too) never reaches an
 * external that needs TypeScript. `entry` is the entry's output path in the metafile; a command
 * is the output whose entryPoint is `<commandsDir>/<name>.ts`.
 */
export function servedCommands(metafile, entry, commandsDir) {
  const outputs = metafile.outputs;
  const reachesTypeScript = (start, kinds) => {
    const seen = new Set();
    const todo = [start];
    while (todo.length) {
      const path = todo.pop();
      if (seen.has(path)) continue;
      seen.add(path);
      for (const imp of outputs[path]?.imports ?? []) {
        if (!kinds.includes(imp.kind)) continue;
        if (imp.external) {
          if (needsTypeScript(imp.path)) return true;
        } else todo.push(imp.path);
      }
    }
    return false;
  };
  if (reachesTypeScript(entry, ["import-statement"])) return [];
  const served = [];
  for (const [path, out] of Object.entries(outputs)) {
    const m = out.entryPoint && new RegExp(`^${commandsDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/([\\w-]+)\\.ts$`).exec(out.entryPoint);
    if (m && !reachesTypeScript(path, ["import-statement", "dynamic-import"])) served.push(m[1]);
  }
  return served.sort();
}

/** Whether every recorded input still has the modification time and size it was built from. */
export function stillFresh(inputs, statOf) {
  for (const [path, mtimeMs, size] of inputs) {
    const s = statOf(path);
    if (!s || s.mtimeMs !== mtimeMs || s.size !== size) return false;
  }
  return inputs.length > 0;
}
