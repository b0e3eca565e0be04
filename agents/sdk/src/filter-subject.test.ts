import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { coveringSubject, subjectMatches } from "./filter-subject.ts";

describe("coveringSubject", () => {
  it("keeps a single subject as it is", () => {
    expect(coveringSubject(["crumbs.default.created.chat.message.v1"])).toBe(
      "crumbs.default.created.chat.message.v1",
    );
  });
  it("widens differing tokens of equal-length subjects to *", () => {
    expect(
      coveringSubject(["crumbs.default.created.chat.message.v1", "crumbs.default.updated.chat.message.v1"]),
    ).toBe("crumbs.default.*.chat.message.v1");
  });
  it("falls back to a common prefix and > for different lengths", () => {
    expect(
      coveringSubject(["crumbs.default.*.chat.message.v1", "crumbs.default.*.browser.page.context.v1"]),
    ).toBe("crumbs.default.*.>");
  });
  it("covers everything when nothing is given", () => {
    expect(coveringSubject([])).toBe("crumbs.>");
  });
  it("always covers every input subject", () => {
    const token = fc.constantFrom("a", "b", "c", "*");
    const subject = fc
      .tuple(fc.array(token, { minLength: 1, maxLength: 4 }), fc.boolean())
      .map(([t, tail]) => ["crumbs", ...t, ...(tail ? [">"] : [])].join("."));
    const concrete = (s: string) => s.replace(/\*/g, "x").replace(/>$/, "y.z");
    fc.assert(
      fc.property(fc.array(subject, { minLength: 1, maxLength: 5 }), (subjects) => {
        const cover = coveringSubject(subjects);
        expect(subjects.filter((s) => !subjectMatches(cover, concrete(s)))).toEqual([]);
      }),
    );
  });
});

describe("subjectMatches", () => {
  it("handles * and >", () => {
    expect(subjectMatches("crumbs.*.updated.browser.>", "crumbs.u1.updated.browser.page.context.v1")).toBe(
      true,
    );
    expect(subjectMatches("crumbs.*.updated.browser.>", "crumbs.u1.created.browser.page.context.v1")).toBe(
      false,
    );
    expect(subjectMatches("crumbs.a.>", "crumbs.a")).toBe(false);
  });
});
