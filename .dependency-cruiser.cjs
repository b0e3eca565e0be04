// The dependency rule of the repository (docs/architecture.md, "The dependency rule"), checked
// by `npm run depcheck`, which `npm test` runs. Paths are the resolved files: a workspace import
// such as `@crumbs/schemas` resolves (through its package `exports`) to packages/schemas/src/index.ts.

/** Apps: processes someone runs. */
const APPS = "^(apps/[^/]+|examples|bench)/";
/** Libraries: imported by apps, never importing one. */
const LIBRARIES = "^packages/[^/]+/";
/** Test files and test folders, of every package. */
const TESTS = "(^|/)test/|\\.test\\.ts$";
/** A package's integration-test folder. */
const TEST_FOLDER = "^(examples|bench)/test/|^(apps|packages)/[a-z-]+/test/";
/** Every workspace package, captured so a rule can compare the importer's package with the target's. */
const PACKAGE = "^(examples|bench|apps/[^/]+|packages/[^/]+)/";

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
      from: { path: "^(examples|bench|apps/[^/]+|packages/[^/]+)/test/" },
      to: { dependencyTypes: ["local"], path: PACKAGE, pathNot: ["^$1/", TEST_FOLDER] },
    },
    {
      name: "libraries-never-depend-on-apps",
      severity: "error",
      comment: "schemas, agent-sdk, telemetry and testkit are below every app; an app is never imported by a library.",
      from: { path: LIBRARIES, pathNot: TEST_FOLDER },
      to: { path: APPS },
    },
    {
      name: "schemas-depend-on-no-workspace",
      severity: "error",
      comment: "@crumbs/schemas is the contract: it imports no other workspace package.",
      from: { path: "^packages/schemas/" },
      to: { path: "^(apps|packages/(?!schemas/)[^/]+|examples|bench)/" },
    },
    {
      name: "apps-do-not-import-apps",
      severity: "error",
      comment:
        "Apps talk over HTTP and NATS, not imports. Exceptions: the CLI launches the API and the runner " +
        "(`crumbs start|api|runner`), bench measures them, tests start whatever they test, and the API serves the " +
        "dashboard's built files (it imports only where they are: apps/dashboard/index.ts).",
      from: { path: "^(apps/(api|runner|dashboard|extension)|examples)/", pathNot: TESTS },
      to: { path: APPS, pathNot: ["^$1/", "^apps/dashboard/index\\.ts$"] },
    },
    {
      name: "extension-is-browser-only",
      severity: "error",
      comment:
        "The extension bundles run in Chrome: no Node built-ins, no Node-only packages (core nats, postgres, " +
        "drizzle) and no workspace package but @crumbs/schemas.",
      from: { path: "^apps/extension/src/" },
      to: {
        dependencyTypes: ["core"],
      },
    },
    {
      name: "extension-imports-only-browser-packages",
      severity: "error",
      comment: "See extension-is-browser-only.",
      from: { path: "^apps/extension/src/" },
      to: {
        path: [
          "^(apps/(?!extension/)[^/]+|packages/(?!schemas/)[^/]+|examples|bench)/",
          "node_modules/(nats|postgres|drizzle-orm|@electric-sql|playwright-core|handlebars|jsonpath-plus)/",
        ],
      },
    },
    {
      name: "test-support-only-from-tests",
      severity: "error",
      comment: "@crumbs/testkit and vitest are for tests (and bench, which drives the same servers), never for shipped code.",
      from: { path: PACKAGE, pathNot: [TESTS, "^bench/", "^packages/testkit/"] },
      to: { path: ["^packages/testkit/", "node_modules/vitest/"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|results)/|/test/reporter-fixtures/" },
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
