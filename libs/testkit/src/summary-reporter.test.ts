import { describe, expect, it } from "vitest";
import { countRun, runIsGreen, summaryLine, type CountableModule, type CountableTest } from "./summary-reporter.ts";

// countRun on hand-built modules shaped like vitest's; test/summary-reporter.test.ts runs the same
// reporter on real vitest runs of fixture files.
const test = (state: string, flaky = false): CountableTest => ({
  result: () => ({ state }),
  diagnostic: () => (state === "skipped" || state === "pending" ? undefined : { flaky }),
});

function mod(tests: CountableTest[], opts: { errors?: number; suiteErrors?: number[] } = {}): CountableModule {
  return {
    errors: () => Array.from({ length: opts.errors ?? 0 }, () => new Error("module")),
    children: {
      allSuites: () => (opts.suiteErrors ?? []).map((n) => ({ errors: () => Array.from({ length: n }, () => new Error("suite")) })),
      allTests: () => tests,
    },
  };
}

describe("countRun", () => {
  it("counts passed, failed and skipped tests of every module", () => {
    const counts = countRun([mod([test("passed"), test("failed")]), mod([test("skipped"), test("passed")])], [], "failed");
    expect(counts).toEqual({ passed: 2, failed: 1, skipped: 1, flaky: 0 });
    expect(runIsGreen(counts)).toBe(false);
  });

  it("counts a test that passed on a retry as flaky, not passed, and the run is not green", () => {
    const counts = countRun([mod([test("passed", true), test("passed")])], [], "passed");
    expect(counts).toEqual({ passed: 1, failed: 0, skipped: 0, flaky: 1 });
    expect(runIsGreen(counts)).toBe(false);
    expect(summaryLine(counts)).toBe("tests: 1 passed, 0 failed, 0 skipped, 1 flaky");
  });

  it("counts a module that did not load or whose hook threw, though its tests say skipped", () => {
    const counts = countRun([mod([test("skipped"), test("skipped")], { errors: 1 })], [], "failed");
    expect(counts).toEqual({ passed: 0, failed: 1, skipped: 2, flaky: 0 });
  });

  it("counts each suite whose hook threw", () => {
    expect(countRun([mod([test("passed")], { suiteErrors: [1, 0, 2] })], [], "failed").failed).toBe(2);
  });

  it("counts every unhandled error", () => {
    expect(countRun([mod([test("passed")])], [new Error("a"), new Error("b")], "failed").failed).toBe(2);
  });

  it("never says 0 failed for a run with no test file", () => {
    expect(countRun([], [], "passed")).toEqual({ passed: 0, failed: 1, skipped: 0, flaky: 0 });
  });

  it("never says 0 failed when vitest calls the run failed for a reason it does not name", () => {
    expect(countRun([mod([test("passed")])], [], "failed").failed).toBe(1);
  });

  it("calls a run green only with nothing failed and nothing flaky", () => {
    const counts = countRun([mod([test("passed"), test("skipped")])], [], "passed");
    expect(runIsGreen(counts)).toBe(true);
    expect(summaryLine(counts)).toBe("tests: 1 passed, 0 failed, 1 skipped, 0 flaky");
  });
});
