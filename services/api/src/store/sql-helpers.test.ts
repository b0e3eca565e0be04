import { describe, expect, it } from "vitest";
import { arrayLiteral } from "./sql-helpers.ts";

describe("text[] literals", () => {
  it("quotes every element, so commas, braces, quotes, backslashes and NULL stay text", () => {
    expect(arrayLiteral([])).toBe("{}");
    expect(arrayLiteral(["a", "b:c"])).toBe('{"a","b:c"}');
    expect(arrayLiteral(['say "hi"', "back\\slash", "a,b", "{x}", "NULL", " "])).toBe(
      '{"say \\"hi\\"","back\\\\slash","a,b","{x}","NULL"," "}',
    );
  });
});
