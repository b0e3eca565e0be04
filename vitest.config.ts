import { defineConfig } from "vitest/config";

// One vitest run covers every workspace. Projects:
// - unit: pure logic beside the code (src/**/*.test.ts), fast, parallel.
// - integration: real Postgres + a nats-server each test file starts; files run one at a time
//   because the machine has two cores and each file owns its own servers.
// - browser: real Chromium, with the built extension loaded or on the dashboard at /ui/.
export default defineConfig({
  test: {
    reporters: ["default", "./services/testkit/src/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["{schemas,services,agents,extension}/**/src/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["{schemas,services,agents}/**/test/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**", "services/dashboard/test/**"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
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
