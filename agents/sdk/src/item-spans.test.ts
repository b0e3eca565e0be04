import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itemSpans } from "./item-spans.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const slices = (text: string) => {
  const bytes = enc.encode(text);
  return itemSpans(bytes)?.map(([a, b]) => dec.decode(bytes.subarray(a, b)));
};

describe("itemSpans", () => {
  it("gives each item's bytes as the page has them", () => {
    const page = `{"items":[{"seq":1,"breadcrumb":{"title": "a \\"quoted\\" ] } , title", "tags": ["x", "y"]}},{"seq":2,"t":"\\\\"}],"next_after":2,"has_more":false}`;
    expect(slices(page)).toEqual([`{"seq":1,"breadcrumb":{"title": "a \\"quoted\\" ] } , title", "tags": ["x", "y"]}}`, `{"seq":2,"t":"\\\\"}`]);
  });

  it("finds items wherever the key is, with whitespace and multi-byte text, and an empty page", () => {
    expect(slices(`{ "next_after" : null , "items" : [ {"é": "ü ☃ 𝄞"} , [1] ,"s" ] }`)).toEqual([`{"é": "ü ☃ 𝄞"}`, `[1]`, `"s"`]);
    expect(slices(`{"items":[],"has_more":false}`)).toEqual([]);
    expect(slices(`{"other":[{"items":[1]}]}`)).toBeUndefined();
  });

  it("agrees with JSON.parse on any page of JSON values", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.jsonValue(), (items, other) => {
        const page = JSON.stringify({ before: other, items, after: other }, null, items.length % 2 ? 1 : undefined);
        const got = slices(page)!.map((s) => JSON.parse(s) as unknown);
        expect(got).toEqual(JSON.parse(page).items);
      }),
    );
  });
});
