import { describe, expect, it } from "vitest";
import { UsageError } from "./errors.ts";
import { parseSeq, parseTime } from "./time.ts";

const now = new Date("2025-03-10T12:00:00.000Z");

describe("parseTime", () => {
  it.each([
    ["30s", "2025-03-10T11:59:30.000Z"],
    ["30m", "2025-03-10T11:30:00.000Z"],
    ["1h", "2025-03-10T11:00:00.000Z"],
    ["1.5h", "2025-03-10T10:30:00.000Z"],
    ["2d", "2025-03-08T12:00:00.000Z"],
    ["1w", "2025-03-03T12:00:00.000Z"],
  ])("reads %s as a duration back from now", (input, expected) => {
    expect(parseTime(input, now)).toBe(expected);
  });

  it("normalises ISO times to UTC", () => {
    expect(parseTime("2025-01-31T12:00:00+01:00", now)).toBe("2025-01-31T11:00:00.000Z");
    expect(parseTime("2025-01-31", now)).toBe("2025-01-31T00:00:00.000Z");
  });

  it.each(["", "1", "h", "-1h", "1y", "yesterday", "2025-13-45"])("rejects %j as a usage error", (input) => {
    expect(() => parseTime(input, now)).toThrow(UsageError);
  });
});

describe("parseSeq", () => {
  it("accepts non-negative integers only", () => {
    expect(parseSeq("0")).toBe(0);
    expect(parseSeq("42")).toBe(42);
    for (const bad of ["-1", "1.5", "abc", ""]) expect(() => parseSeq(bad)).toThrow(UsageError);
  });
});
