// The role each workspace declares in its package.json (`"crumbs": { "role": "app" }` or `"library"`),
// read by .dependency-cruiser.cjs so the dependency rule (docs/architecture.md, "The dependency rule")
// follows what a package is, not which folder it sits in: agents/ holds apps (runner, examples) and
// libraries (sdk, definitions) side by side.
const { readdirSync, readFileSync, existsSync } = require("node:fs");
const { join } = require("node:path");

const ROLES = ["app", "library"];

/**
 * Every workspace of the root package.json as `{ dir, name, role }` (dir relative to root, `/`-separated).
 * Throws naming the package.json whose role is missing or unknown: a package without one would slip
 * through every rule.
 */
function readWorkspaces(root) {
  const globs = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces ?? [];
  const dirs = globs.flatMap((glob) => {
    if (!glob.endsWith("/*")) return [glob];
    const parent = glob.slice(0, -2);
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, parent, d.name, "package.json")))
      .map((d) => `${parent}/${d.name}`);
  });
  return dirs.sort().map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
    const role = pkg.crumbs?.role;
    if (!ROLES.includes(role))
      throw new Error(`${dir}/package.json: "crumbs": { "role": ... } must be one of ${ROLES.join(", ")} (is ${JSON.stringify(role)})`);
    return { dir, name: pkg.name, role };
  });
}

const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `^(a|b/c)/`: a path inside one of these folders, the folder captured as $1 (for `pathNot: "^$1/"`). */
function folderPattern(dirs) {
  if (!dirs.length) return "^$.";
  return `^(${dirs.map(escapeRegex).join("|")})/`;
}

/**
 * The dependency rule's path patterns, from the workspaces' roles (pure).
 * `dirOf(name)` is the folder of a package, for the rules about one package (the extension, schemas).
 */
function rolePatterns(workspaces) {
  const of = (role) => workspaces.filter((w) => w.role === role).map((w) => w.dir);
  const all = workspaces.map((w) => w.dir);
  const dirOf = (name) => {
    const w = workspaces.find((x) => x.name === name);
    if (!w) throw new Error(`no workspace is named ${name}`);
    return w.dir;
  };
  return {
    APPS: folderPattern(of("app")),
    LIBRARIES: folderPattern(of("library")),
    PACKAGE: folderPattern(all),
    /** The packages but these, as one pattern. */
    packagesBut: (...names) => folderPattern(all.filter((d) => !names.map(dirOf).includes(d))),
    dirOf,
  };
}

module.exports = { readWorkspaces, rolePatterns, folderPattern };
