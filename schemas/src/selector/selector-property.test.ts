import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidSelectorError } from "../contract/errors.ts";
import { compileSelector } from "./selector-compile.ts";
import { SELECTOR_OPS } from "./selector-schema.ts";

// Whatever a client sends as a selector: either it compiles, or it is refused with
// InvalidSelectorError. A compiled selector never throws while matching any JSON context.

const pathArb = fc.oneof(
  fc.constantFrom("$.a", "$.a.b", "$..a", "$.a[*]", "$.a[0]", "$['a b']", "$.a[1:]", "$", "$.a[?(@.x)]", "a", "$.", "$[", "$..*"),
  fc.string({ maxLength: 12 }).map((s) => "$." + s),
);
const conditionArb = fc.record(
  { path: pathArb, op: fc.oneof(fc.constantFrom(...SELECTOR_OPS), fc.string({ maxLength: 6 })), value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom("(a+)+", "^a.*$", "[", "\\1")) },
  { requiredKeys: ["path", "op"] },
);
const selectorArb = fc.oneof(
  fc.record(
    {
      schema_name: fc.oneof(fc.constantFrom("a.v1", "b.c.v2", "Bad Name"), fc.array(fc.constantFrom("a.v1", "b.v1"), { maxLength: 3 })),
      any_tags: fc.array(fc.constantFrom("x", "y", "has space"), { maxLength: 3 }),
      all_tags: fc.array(fc.constantFrom("x", "y"), { maxLength: 3 }),
      none_tags: fc.array(fc.constantFrom("x", "z"), { maxLength: 2 }),
      context_match: fc.array(conditionArb, { maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);
const contextArb = fc.dictionary(fc.constantFrom("a", "b", "x", "a b"), fc.jsonValue({ maxDepth: 4 }));

describe("selector validation (property)", () => {
  it("compiles or throws InvalidSelectorError, and matching never throws", () => {
    fc.assert(
      fc.property(selectorArb, contextArb, fc.array(fc.constantFrom("x", "y", "z"), { maxLength: 3 }), (selector, context, tags) => {
        let compiled;
        try {
          compiled = compileSelector(selector);
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidSelectorError);
          return;
        }
        expect(typeof compiled.matches({ schema_name: "a.v1", tags, context })).toBe("boolean");
      }),
      { numRuns: 800 },
    );
  }, 30_000);
});
