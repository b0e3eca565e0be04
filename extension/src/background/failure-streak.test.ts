import { describe, expect, it } from "vitest";
import { FailureStreak, REPORT_EVERY } from "./failure-streak.ts";

describe("a background task's failures in the activity log", () => {
  const streak = () => {
    const lines: { text: string; ok: boolean }[] = [];
    return { lines, s: new FailureStreak("the action subscription", (text, ok) => lines.push({ text, ok })) };
  };

  it("shows the first failure of a streak with its message", () => {
    const { lines, s } = streak();
    s.failed(new Error("CONNECTION_CLOSED"));
    expect(lines).toEqual([{ text: "the action subscription failed, retrying: CONNECTION_CLOSED", ok: false }]);
    expect(s.count).toBe(1);
  });

  it("a long outage adds one line per 10 failures, not one per retry", () => {
    const { lines, s } = streak();
    for (let i = 0; i < 3 * REPORT_EVERY; i++) s.failed("timeout");
    expect(lines.map((l) => l.text)).toEqual([
      "the action subscription failed, retrying: timeout",
      "the action subscription failed (10 times in a row), retrying: timeout",
      "the action subscription failed (20 times in a row), retrying: timeout",
      "the action subscription failed (30 times in a row), retrying: timeout",
    ]);
  });

  it("says when the task works again, once, and starts a new streak after it", () => {
    const { lines, s } = streak();
    s.succeeded();
    expect(lines).toEqual([]);
    s.failed("a");
    s.failed("b");
    s.succeeded();
    s.succeeded();
    expect(lines.at(-1)).toEqual({ text: "the action subscription works again after 2 failures", ok: true });
    expect(lines).toHaveLength(2);
    s.failed("c");
    expect(lines.at(-1)?.text).toBe("the action subscription failed, retrying: c");
  });
});
