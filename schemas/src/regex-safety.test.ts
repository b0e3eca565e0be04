import { describe, expect, it } from "vitest";
import { regexSafetyProblem } from "./regex-safety.ts";

describe("regexSafetyProblem", () => {
  it.each(["^https://", "a+b*c?", "(ab)+", "(a|b)*c", "[a-z]+@[a-z]+\\.com", "(\\d{1,3}\\.){3}\\d{1,3}", "(?:foo)+", "(?<year>\\d{4})-", "[(+*)]+"])(
    "accepts %s",
    (p) => expect(regexSafetyProblem(p)).toBeUndefined(),
  );
  it.each(["(a+)+", "(a*)*", "(\\w+\\s?)*$", "((ab)+)+", "(a{2,})+", "(?:x+y*)+", "(a)\\1", "(?<n>a)\\k<n>"])(
    "refuses %s",
    (p) => expect(regexSafetyProblem(p)).toBeDefined(),
  );
  it("refuses overlong patterns", () => {
    expect(regexSafetyProblem("a".repeat(513))).toMatch(/longer/);
  });
});
