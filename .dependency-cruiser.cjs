// The dependency rule of the repository (docs/architecture.md, "The dependency rule"), checked
// by `npm run depcheck`, which `npm test` runs. Paths are the resolved files: a workspace import
// such as `@crumbs/schemas` resolves (through its package `exports`) to schemas/src/index.ts.

// Apps and libraries are told apart by the role each package.json declares (`"crumbs": { "role": "app" }`
// or "library"; scripts/workspace-roles.cjs), not by folder: agents/ holds both.
const { readWorkspaces, rolePatterns, folderPattern } = require("./scripts/workspace-roles.cjs");
const roles = rolePatterns(readWorkspaces(__dirname));
const { dirOf, packagesBut } = roles;

/** Apps: processes someone runs (role "app"). */
const APPS = roles.APPS;
/** Libraries: imported by apps, never importing one (role "library"). */
const LIBRARIES = roles.LIBRARIES;
/** Every workspace package, captured so a rule can compare the importer's package with the target's. */
const PACKAGE = roles.PACKAGE;
/** A package's integration-test folder, the package captured. */
const TEST_FOLDER = `${PACKAGE}test/`;
/** Test files and test folders, of every package. */
const TESTS = "(^|/)test/|\\.test\\.ts$";
/** The light subpaths of @crumbs/schemas (package.json `exports`), and the light modules they use. */
const LIGHT_SCHEMAS =
  "^schemas/src/contract/(browser-action-schema|action-names|role-selector-schema|action-result-schema|task-cancel-schema|interest-schema|task-names|" +
  "reference-page-hints|pcd-schema|token-estimate|merge-patch|regex-limits|reference-event|sse-parser|nats-names|zod-mini|api-errors|errors)\\.ts$";
/** The SDK's fetch-only subpath, `@crumbs/agent-sdk/http` (its package.json `exports`). */
const SDK_HTTP = "^agents/sdk/src/http/";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle means two modules are one: merge them or move the shared part below both.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-reaching-into-another-package",
      severity: "error",
      comment:
        "Another package is used through its name and `exports` (@crumbs/x), never by a relative path into its " +
        "folder. Tests may share another package's test helpers (test/), nothing else.",
      from: { path: PACKAGE, pathNot: TEST_FOLDER },
      to: { dependencyTypes: ["local"], path: PACKAGE, pathNot: "^$1/" },
    },
    {
      name: "tests-reach-only-test-helpers",
      severity: "error",
      comment: "A test of one package may import another package's test/ helpers, never its src/ by path.",
      from: { path: TEST_FOLDER },
      to: { dependencyTypes: ["local"], path: PACKAGE, pathNot: ["^$1/", TEST_FOLDER] },
    },
    {
      name: "libraries-never-depend-on-apps",
      severity: "error",
      comment: "Libraries (schemas, agent-sdk, agent-definitions, migrations, telemetry, testkit) are below every app; an app is never imported by a library.",
      from: { path: LIBRARIES, pathNot: TEST_FOLDER },
      to: { path: APPS },
    },
    {
      name: "schemas-depend-on-no-workspace",
      severity: "error",
      comment: "@crumbs/schemas is the contract: it imports no other workspace package.",
      from: { path: folderPattern([dirOf("@crumbs/schemas")]) },
      to: { path: packagesBut("@crumbs/schemas") },
    },
    {
      name: "apps-do-not-import-apps",
      severity: "error",
      comment:
        "Apps talk over HTTP and NATS, not imports. Exceptions: the CLI launches the API and the runner " +
        "(`crumbs start|api|runner`), bench measures them, tests start whatever they test, and the API serves the " +
        "dashboard's built files (it imports only where they are: services/dashboard/index.ts).",
      from: { path: APPS, pathNot: [TESTS, folderPattern([dirOf("@crumbs/cli"), dirOf("@crumbs/bench")])] },
      to: { path: APPS, pathNot: ["^$1/", `^${dirOf("@crumbs/dashboard")}/index\\.ts$`] },
    },
    {
      name: "extension-is-browser-only",
      severity: "error",
      comment:
        "The extension bundles run in Chrome: no Node built-ins, no Node-only packages (core nats, postgres, " +
        "drizzle) and no workspace package but @crumbs/schemas and the SDK's HTTP subpath (`@crumbs/agent-sdk/http`).",
      from: { path: "^extension/src/" },
      to: {
        dependencyTypes: ["core"],
      },
    },
    {
      name: "extension-imports-only-browser-packages",
      severity: "error",
      comment: "See extension-is-browser-only.",
      from: { path: "^extension/src/" },
      to: {
        path: [
          packagesBut("@crumbs/extension", "@crumbs/schemas", "@crumbs/agent-sdk"),
          "node_modules/(nats|postgres|drizzle-orm|@electric-sql|playwright-core|handlebars|jsonpath-plus)/",
        ],
      },
    },
    // The extension's folders (extension/README.md, "Folders and their dependency rule").
    {
      name: "extension-bundles-stay-apart",
      severity: "error",
      comment:
        "background/ (the worker), content/ (the page), sidepanel/, options/, re2/ (the RE2 engine injected " +
        "beside the content script) and page-world/ (the probe in the page's own JS world) are bundles in their own realms: they talk through messages, storage and " +
        "one global, whose shapes are in shared/, never by importing each other.",
      from: { path: "^extension/src/(background|content|sidepanel|options|re2|page-world)/" },
      to: { path: "^extension/src/(background|content|sidepanel|options|re2|page-world)/", pathNot: "^extension/src/$1/" },
    },
    {
      name: "extension-shared-is-the-protocol",
      severity: "error",
      comment:
        "shared/ holds what the bundles exchange (commands, messages, errors, stored state); it imports no " +
        "bundle, only the pure snapshot/ and risk/ whose shapes the messages carry.",
      from: { path: "^extension/src/shared/" },
      to: { path: "^extension/src/", pathNot: "^extension/src/(shared|snapshot|risk)/" },
    },
    {
      name: "extension-engines-are-pure",
      severity: "error",
      comment:
        "snapshot/ (tree to text, budget, frames) and risk/ (risk, sites, allowlist) are pure functions of " +
        "their input: each imports nothing of the extension outside itself, and no NATS (eslint keeps chrome and the DOM out).",
      from: { path: "^extension/src/(snapshot|risk)/" },
      to: { path: ["^extension/src/", "node_modules/nats"], pathNot: "^extension/src/$1/" },
    },
    {
      name: "extension-perception-is-pure",
      severity: "error",
      comment:
        "perception/ (the page model of a snapshot tree, the pcd, the query index, refs that heal, name matching) " +
        "is pure like snapshot/, whose tree it reads: it imports only itself and snapshot/, and no NATS.",
      from: { path: "^extension/src/perception/" },
      to: { path: ["^extension/src/", "node_modules/nats"], pathNot: "^extension/src/(perception|snapshot)/" },
    },
    {
      name: "extension-dom-below-verbs",
      severity: "error",
      comment:
        "content/dom/ is what every verb and the guard build on (walker, roles and names, states, actionability, " +
        "selectors, refs, input events): it never imports a verb or the content script's dispatcher.",
      from: { path: "^extension/src/content/dom/" },
      to: { path: "^extension/src/content/", pathNot: "^extension/src/content/dom/" },
    },
    {
      name: "extension-one-verb-per-file",
      severity: "error",
      comment:
        "Each verb in content/actions/ stands alone: it imports the registry, the shared params and dom/, never " +
        "another verb (only index.ts lists them all).",
      from: { path: "^extension/src/content/actions/", pathNot: ["/index\\.ts$", "\\.test\\.ts$"] },
      to: { path: "^extension/src/content/actions/", pathNot: "/(registry|params)\\.ts$" },
    },
    {
      name: "extension-commands-know-no-bus",
      severity: "error",
      comment:
        "background/commands/ runs one command in a tab (frames, tabs, snapshot stitching) for whoever calls " +
        "execute(): it knows nothing of NATS, tasks or the page context.",
      from: { path: "^extension/src/background/commands/" },
      to: { path: "^extension/src/background/", pathNot: "^extension/src/background/commands/" },
    },
    {
      name: "extension-nats-only-carries",
      severity: "error",
      comment:
        "background/nats/ connects, renews credentials and stores what arrives in the inbox; running it is " +
        "tasks/, so nats/ imports neither tasks/ nor commands/ nor context/.",
      from: { path: "^extension/src/background/nats/" },
      to: { path: "^extension/src/background/(tasks|commands|context)/" },
    },
    {
      name: "extension-zod-through-zod-mini",
      severity: "error",
      comment:
        "The extension's bundles take zod as @crumbs/schemas/zod-mini (zod/mini with English messages), never " +
        "the zod package itself: `import { z } from \"zod\"` pulls classic zod with every locale (BENCHMARKS.md).",
      from: { path: "^extension/src/" },
      to: { path: "node_modules/zod/" },
    },
    {
      name: "extension-takes-light-schemas",
      severity: "error",
      comment:
        "The extension imports @crumbs/schemas only through its light subpaths (browser-action, action-result, " +
        "task-cancel, reference-page-hints, reference-event, sse, nats-names, zod-mini, api-errors); the index pulls " +
        "the engines (handlebars, JSONPath, RE2) and classic zod. Its tests may use the index.",
      from: { path: "^extension/src/", pathNot: [TESTS, "^extension/src/re2/"] },
      to: { path: "^schemas/", pathNot: LIGHT_SCHEMAS },
    },
    {
      name: "extension-re2-takes-only-the-engine",
      severity: "error",
      comment:
        "re2/ is the RE2 engine bundle (re2.js): it takes @crumbs/schemas/safe-regex (selector/regex.ts) and the " +
        "light subpaths, nothing else of the schemas package.",
      from: { path: "^extension/src/re2/" },
      to: { path: "^schemas/", pathNot: [LIGHT_SCHEMAS, "^schemas/src/selector/regex\\.ts$"] },
    },
    {
      name: "light-schemas-stay-light",
      severity: "error",
      comment:
        "The light subpaths of @crumbs/schemas import only each other, zod/mini and its English locale (types " +
        "aside, which no bundle keeps), so a browser bundle that takes one takes nothing heavy with it.",
      from: { path: LIGHT_SCHEMAS },
      to: {
        dependencyTypesNot: ["type-only"],
        pathNot: [LIGHT_SCHEMAS, "node_modules/zod/(mini/|v4/locales/en\\.)"],
      },
    },
    {
      name: "browser-apps-take-the-sdk-http-subpath",
      severity: "error",
      comment:
        "The extension and the dashboard call the API through `@crumbs/agent-sdk/http` (the route table, the fetch " +
        "client, the errors), never the SDK's root, which pulls NATS and classic zod into a browser bundle.",
      from: { path: "^(extension|services/dashboard)/src/" },
      to: { path: "^agents/sdk/", pathNot: SDK_HTTP },
    },
    {
      name: "sdk-http-stays-light",
      severity: "error",
      comment:
        "`@crumbs/agent-sdk/http` is fetch alone: it imports only itself, the light subpaths of @crumbs/schemas and " +
        "zod/mini (types aside), never NATS, a Node built-in or the rest of the SDK.",
      from: { path: SDK_HTTP, pathNot: TESTS },
      to: {
        dependencyTypesNot: ["type-only"],
        pathNot: [SDK_HTTP, LIGHT_SCHEMAS, "node_modules/zod/(mini/|v4/locales/en\\.)"],
      },
    },
    {
      name: "test-support-only-from-tests",
      severity: "error",
      comment:
        "@crumbs/testkit and vitest are for tests (and the benches, bench/ and extension/bench/, which drive the same " +
        "servers), never for shipped code.",
      from: { path: PACKAGE, pathNot: [TESTS, "^extension/bench/", folderPattern([dirOf("@crumbs/bench"), dirOf("@crumbs/testkit")])] },
      to: { path: [folderPattern([dirOf("@crumbs/testkit")]), "node_modules/vitest/"] },
    },
    {
      name: "app-testing-subpaths-only-from-tests",
      severity: "error",
      comment:
        "An app's `./testing` export (`@crumbs/api/testing`, `@crumbs/runner/testing`) is what its tests and the bench " +
        "need beyond its public face; shipped code (the CLI included) uses the root export.",
      from: { path: PACKAGE, pathNot: [TESTS, folderPattern([dirOf("@crumbs/bench")])] },
      to: { path: `${folderPattern([dirOf("@crumbs/api"), dirOf("@crumbs/runner")])}src/testing\\.ts$` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|results)/|/test/reporter-fixtures/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
