import { defineConfig } from "vitest/config";

// One vitest run covers every workspace. Projects:
// - unit: pure logic beside the code (src/**/*.test.ts), fast, parallel.
// - integration: real Postgres + a nats-server each test file starts; files run one at a time
//   because the machine has two cores and each file owns its own servers.
// - browser: real Chromium, with the built extension loaded or on the dashboard at /ui/.
// The API logs one access line per request at `info`: tests log warnings and errors only, unless
// LOG_LEVEL says otherwise. Test processes and the CLIs they spawn inherit it; a test that reads the
// access log sets LOG_LEVEL=info for the process it starts.
process.env.LOG_LEVEL ??= "warn";
// Tests bound engine work in units; the wall-clock deadlines (a 15 ms llm-view transform, a 1.5 s
// request) can fire on a busy machine in work that is fine, so tests run without them and the
// bench measures time (schemas/src/budget.ts). Test processes and the APIs they spawn inherit it.
process.env.CRUMBS_WORK_DEADLINES ??= "off";

// Every project fails a test that ran no expect(): one whose assertions sit in a callback that
// never ran would otherwise pass with nothing checked. Inline projects do not inherit the root's
// test options, so each one spreads this.
const shared = { expect: { requireAssertions: true } };

export default defineConfig({
  test: {
    // CRUMBS_TEST_SERVICES=containers: Postgres in a container for the run (libs/testkit's services-setup.ts).
    globalSetup: ["./libs/testkit/src/services-setup.ts"],
    reporters: ["default", "./libs/testkit/src/summary-reporter.ts"],
    projects: [
      {
        test: {
          ...shared,
          name: "unit",
          include: ["{services,extension,agents,schemas,libs,bench}/**/src/**/*.test.ts", "bench/{lib,suites}/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**"],
        },
      },
      {
        test: {
          ...shared,
          name: "integration",
          include: ["{services,extension,agents,schemas,libs}/**/test/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**", "services/dashboard/test/**", "extension/test/**"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          ...shared,
          name: "browser",
          include: ["extension/test/**/*.test.ts", "services/dashboard/test/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
