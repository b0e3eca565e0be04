import { defineConfig } from "vitest/config";

// One vitest run covers every workspace. Projects:
// - unit: pure logic beside the code (src/**/*.test.ts), fast, parallel.
// - integration: real Postgres + a nats-server each test file starts; files run one at a time
//   because the machine has two cores and each file owns its own servers.
// - browser: real Chromium, with the built extension loaded or on the dashboard at /ui/.
export default defineConfig({
  test: {
    reporters: ["default", "./packages/testkit/src/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          include: ["{packages,apps,examples,bench}/**/src/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["{packages,apps,examples}/**/test/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**", "apps/dashboard/test/**", "apps/extension/test/**"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "browser",
          include: ["apps/extension/test/**/*.test.ts", "apps/dashboard/test/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/dist/**"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
