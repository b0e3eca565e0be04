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

  it("keeps control characters, lone surrogates and emoji as they are, escaping only quotes and backslashes", () => {
    const odd = ['line\nbreak\t"tab"\\', "lone \ud800 high", "lone \udc00 low", "pair \ud83d\ude00 \"x\"", JSON.stringify({ a: 'q"\\' })];
    const plain = (v: string) => `"${[...v].map((ch) => (ch === '"' || ch === "\\" ? `\\${ch}` : ch)).join("")}"`;
    expect(arrayLiteral(odd)).toBe(`{${odd.map(plain).join(",")}}`);
  });
});
