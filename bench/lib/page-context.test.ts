import { describe, expect, it } from "vitest";
import { pageContext, pageContextPatchBody } from "./page-context.ts";

describe("pageContextPatchBody", () => {
  it("is the JSON of the page context it stands for, for every page and version", () => {
    for (const n of [0, 7, 999]) {
      for (const version of [1, 2, 99, 100, 12_345]) {
        expect(pageContextPatchBody(n, version)).toBe(JSON.stringify({ context: pageContext(n, version) }));
      }
    }
  });
});
