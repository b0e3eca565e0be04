import { describe, expect, it } from "vitest";
import { CliError } from "./errors.ts";
import { formatEventLine, replayMsgId, replaySubject, validateSubjectPrefix } from "./event-line.ts";

const event = {
  seq: 12,
  type: "breadcrumb.updated" as const,
  id: "0b0f4a8e-5f59-4a43-9d0e-2f5b0d7a1c11",
  owner: "default",
  schema_name: "browser.page.context.v1",
  title: "Pricing\n  page",
  tags: ["browser:context"],
  version: 3,
  at: "2025-01-01T00:00:00.000Z",
  breadcrumb: {},
};

describe("event lines", () => {
  it("prints seq, short type, schema, id, version and a one-line title", () => {
    expect(formatEventLine(event)).toBe(
      "12 updated browser.page.context.v1 0b0f4a8e-5f59-4a43-9d0e-2f5b0d7a1c11 v3 Pricing page",
    );
  });

  it("builds the replay subject and the dedup id from the contract", () => {
    expect(replaySubject("replay", event)).toBe("replay.default.updated.browser.page.context.v1");
    expect(replayMsgId(event)).toBe("0b0f4a8e-5f59-4a43-9d0e-2f5b0d7a1c11:3:updated");
  });

  it("accepts plain subject prefixes only", () => {
    expect(validateSubjectPrefix("replay.today")).toBe("replay.today");
    for (const bad of ["", "a..b", "a.*", "a.>", "has space", ".a", "a."]) {
      expect(() => validateSubjectPrefix(bad)).toThrow(CliError);
    }
  });
});
