import { describe, expect, it } from "vitest";
import { resolveContextSelector, tagValue } from "./context-selectors.ts";

describe("resolveContextSelector", () => {
  const selector = {
    schema_name: "browser.page.context.v1",
    all_tags: ["browser:context", "extension:{{trigger.extension}}"],
  };

  it("fills the trigger's tag values", () => {
    const trigger = { tags: ["user:message", "session:s1", "extension:abc"] };
    expect(resolveContextSelector(selector, trigger)).toEqual({
      schema_name: "browser.page.context.v1",
      all_tags: ["browser:context", "extension:abc"],
    });
  });

  it("drops a tag the trigger cannot fill", () => {
    expect(resolveContextSelector(selector, { tags: ["session:s1"] }).all_tags).toEqual(["browser:context"]);
    expect(resolveContextSelector({ any_tags: ["session:{{trigger.session}}"] }, { tags: [] })).toEqual({});
  });

  it("reads tag values", () => {
    expect(tagValue({ tags: ["a:1", "extension:x:y"] }, "extension")).toBe("x:y");
  });
});
