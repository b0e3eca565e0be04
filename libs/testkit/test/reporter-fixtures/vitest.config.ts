import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// A tiny project that reporter.test.ts runs as a child vitest, one fixture file at a time, to see
// the summary line and exit code a real run ends with. `.fixture.ts` keeps these files out of the
// repository's own test projects.
export default defineConfig({
  test: {
    include: ["*.fixture.ts"],
    reporters: [fileURLToPath(new URL("../../src/summary-reporter.ts", import.meta.url))],
  },
});
