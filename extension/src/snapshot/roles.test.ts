import { describe, expect, it } from "vitest";
import { computeRole, explicitRole, implicitRole } from "./roles.ts";

describe("roles", () => {
  it("maps native elements to their implicit ARIA roles", () => {
    expect(implicitRole({ tag: "a", hasHref: true })).toBe("link");
    expect(implicitRole({ tag: "a" })).toBe("generic");
    expect(implicitRole({ tag: "input" })).toBe("textbox");
    expect(implicitRole({ tag: "input", type: "checkbox" })).toBe("checkbox");
    expect(implicitRole({ tag: "input", type: "search" })).toBe("searchbox");
    expect(implicitRole({ tag: "input", type: "submit" })).toBe("button");
    expect(implicitRole({ tag: "input", type: "range" })).toBe("slider");
    expect(implicitRole({ tag: "select" })).toBe("combobox");
    expect(implicitRole({ tag: "select", multiple: true })).toBe("listbox");
    expect(implicitRole({ tag: "h3" })).toBe("heading");
    expect(implicitRole({ tag: "nav" })).toBe("navigation");
    expect(implicitRole({ tag: "img", altEmpty: true })).toBe("presentation");
  });

  it("makes header/footer landmarks only outside sectioning content, section/form only when named", () => {
    expect(implicitRole({ tag: "header" })).toBe("banner");
    expect(implicitRole({ tag: "header", inSectioning: true })).toBe("generic");
    expect(implicitRole({ tag: "section" })).toBe("generic");
    expect(implicitRole({ tag: "section", hasExplicitName: true })).toBe("region");
    expect(implicitRole({ tag: "form", hasExplicitName: true })).toBe("form");
  });

  it("lets the first token of an explicit role win", () => {
    expect(explicitRole("  switch checkbox ")).toBe("switch");
    expect(computeRole({ tag: "div", roleAttr: "button" })).toBe("button");
    expect(computeRole({ tag: "button", roleAttr: "" })).toBe("button");
  });
});
