import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// A tiny project that summary-reporter.test.ts runs as a child vitest, one fixture file at a time, to see
// the summary line and exit code a real run ends with. `.fixture.ts` keeps these files out of the
// repository's own test projects.
export default defineConfig({
  test: {
    include: ["*.fixture.ts"],
    // As in the repository's own config: a test whose assertions never ran fails.
    expect: { requireAssertions: true },
    reporters: [fileURLToPath(new URL("../../src/summary-reporter.ts", import.meta.url))],
  },
});
