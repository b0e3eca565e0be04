import type { Reporter, TestModule, TestRunEndReason } from "vitest/node";

export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Tests that failed at least once and then passed on a retry: a red run, not a green one. */
  flaky: number;
}

/**
 * The parts of vitest's reported tasks `countRun` reads, so a unit test can hand it plain objects.
 */
export interface CountableTest {
  result(): { state: string };
  diagnostic(): { flaky: boolean } | undefined;
}
export interface CountableModule {
  errors(): ReadonlyArray<unknown>;
  children: {
    allSuites(): Iterable<{ errors(): ReadonlyArray<unknown> }>;
    allTests(): Iterable<CountableTest>;
  };
}

/**
 * Counts a run the way a reader of `N failed` expects: a test that failed, and also every file or
 * suite whose setup or teardown threw or that did not load (vitest then marks its tests skipped,
 * so counting tests alone says `0 failed`), every unhandled error, and a run that found no test
 * file at all. If vitest still calls the run failed for a reason none of these cover, that is one
 * failure too, so the line never says `0 failed` for a red run. A test that passed only on a retry
 * counts as flaky, not passed: a retry that hides a stall is the failure the line exists to show.
 */
export function countRun(
  testModules: ReadonlyArray<CountableModule>,
  unhandledErrors: ReadonlyArray<unknown>,
  reason: TestRunEndReason,
): RunCounts {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let flaky = 0;
  for (const mod of testModules) {
    // Load errors and beforeAll/afterAll errors of the file itself live on the module; those of
    // a describe block on its suite.
    if (mod.errors().length > 0) failed += 1;
    for (const suite of mod.children.allSuites()) if (suite.errors().length > 0) failed += 1;
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === "passed") {
        if (test.diagnostic()?.flaky) flaky += 1;
        else passed += 1;
      } else if (state === "failed") failed += 1;
      else skipped += 1;
    }
  }
  failed += unhandledErrors.length;
  if (testModules.length === 0) failed += 1;
  if (reason === "failed" && failed === 0) failed = 1;
  return { passed, failed, skipped, flaky };
}

export function summaryLine({ passed, failed, skipped, flaky }: RunCounts): string {
  return `tests: ${passed} passed, ${failed} failed, ${skipped} skipped, ${flaky} flaky`;
}

/** A run is green only with nothing failed and nothing that needed a retry to pass. */
export function runIsGreen({ failed, flaky }: RunCounts): boolean {
  return failed === 0 && flaky === 0;
}

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped, N flaky`, after vitest's
 * own summary, and makes the process exit non-zero when the run had a flaky test (vitest itself
 * calls a test that passed on retry green). CI reads that line to tell a real run from one that
 * ran nothing.
 */
export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
    reason: TestRunEndReason,
  ): void {
    const counts = countRun(testModules, unhandledErrors, reason);
    process.stdout.write(`\n${summaryLine(counts)}\n`);
    // vitest only ever raises the exit code to 1, never lowers it, so setting it here sticks.
    if (!runIsGreen(counts)) process.exitCode = 1;
  }
}
