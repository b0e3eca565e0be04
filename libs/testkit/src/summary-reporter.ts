import type { Reporter, TestModule, TestRunEndReason } from "vitest/node";

export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Counts a run the way a reader of `N failed` expects: a test that failed, and also every file or
 * suite whose setup or teardown threw or that did not load (vitest then marks its tests skipped,
 * so counting tests alone says `0 failed`), every unhandled error, and a run that found no test
 * file at all. If vitest still calls the run failed for a reason none of these cover, that is one
 * failure too, so the line never says `0 failed` for a red run.
 */
export function countRun(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<unknown>,
  reason: TestRunEndReason,
): RunCounts {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const mod of testModules) {
    // Load errors and beforeAll/afterAll errors of the file itself live on the module; those of
    // a describe block on its suite.
    if (mod.errors().length > 0) failed += 1;
    for (const suite of mod.children.allSuites()) if (suite.errors().length > 0) failed += 1;
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") passed += 1;
      else if (state === "failed") failed += 1;
      else skipped += 1;
    }
  }
  failed += unhandledErrors.length;
  if (testModules.length === 0) failed += 1;
  if (reason === "failed" && failed === 0) failed = 1;
  return { passed, failed, skipped };
}

export function summaryLine({ passed, failed, skipped }: RunCounts): string {
  return `tests: ${passed} passed, ${failed} failed, ${skipped} skipped`;
}

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own
 * summary. CI reads that line to tell a real run from one that ran nothing.
 */
export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: TestRunEndReason,
  ): void {
    process.stdout.write(`\n${summaryLine(countRun(testModules, unhandledErrors, reason))}\n`);
  }
}
