// One lint setup for every workspace. Not type-aware on purpose: `tsc` already
// typechecks each workspace, and a typed lint pass would double the CI time.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/.turbo/**",
      ".crumbs/**",
      "bench/results/**",
      "migrations/meta/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // None left: a value whose shape is unknown is `unknown`, narrowed where it is read.
      "@typescript-eslint/no-explicit-any": "error",
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
  {
    // CommonJS is what dependency-cruiser loads its config as (.dependency-cruiser.cjs and what it requires).
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["extension/src/**/*.ts"],
    languageOptions: { globals: { ...globals.browser, chrome: "readonly" } },
  },
  {
    // The extension's pure engines (extension/README.md, "Folders and their dependency rule"): no
    // extension API, no DOM, no network, so they run and are tested anywhere. Imports are checked by
    // .dependency-cruiser.cjs; globals here.
    files: ["extension/src/{snapshot,risk,perception}/**/*.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        ...["chrome", "document", "window", "location", "navigator", "fetch", "XMLHttpRequest", "WebSocket"],
        ...["getComputedStyle", "localStorage", "sessionStorage", "performance", "requestAnimationFrame"],
      ],
    },
  },
);
