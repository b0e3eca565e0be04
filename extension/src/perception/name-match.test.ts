import { describe, expect, it } from "vitest";
import { compileSafeRegex } from "@crumbs/schemas";
import { matchNames } from "./name-match.ts";

const names = ["Save", "Save draft", "save as…", "  Save   copy ", "Delete"];

describe("role selector names", () => {
  it("includes: case-insensitive, whole names before substrings", () => {
    expect(matchNames(names, "save", "includes")).toEqual([0]);
    expect(matchNames(names, "SAVE D", "includes")).toEqual([1]);
    expect(matchNames(names, "copy", "includes")).toEqual([3]);
  });

  it("exact: the whole name with its case, spaces collapsed", () => {
    expect(matchNames(names, "Save copy", "exact")).toEqual([3]);
    expect(matchNames(names, "save", "exact")).toEqual([]);
  });

  it("regex: RE2 patterns, anchored or not, (?i) for case", () => {
    // The pattern sees the name as given (here with its stray spaces: no collapsing).
    expect(matchNames(names, "^Save", "regex", compileSafeRegex("^Save"))).toEqual([0, 1]);
    expect(matchNames(names, "(?i)^save( as)?…?$", "regex", compileSafeRegex("(?i)^save( as)?…?$"))).toEqual([0, 2]);
    expect(() => matchNames(names, "x", "regex")).toThrow(/compiled pattern/);
  });
});
