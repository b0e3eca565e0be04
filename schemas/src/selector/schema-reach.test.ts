import { describe, expect, it } from "vitest";
import { compileSelector } from "./selector-compile.ts";
import { selectorCanMatchSchema } from "./schema-reach.ts";

const PAGE = "browser.page.context.v1";

describe("selectorCanMatchSchema", () => {
  it("a selector naming the schema, alone or in a list, can match it", () => {
    expect(selectorCanMatchSchema({ schema_name: PAGE }, PAGE)).toBe(true);
    expect(selectorCanMatchSchema({ schema_name: ["chat.message.v1", PAGE], any_tags: ["x"] }, PAGE)).toBe(true);
    expect(selectorCanMatchSchema(compileSelector({ schema_name: PAGE }), PAGE)).toBe(true);
  });
  it("a selector naming no schema can match every one", () => {
    expect(selectorCanMatchSchema({}, PAGE)).toBe(true);
    expect(selectorCanMatchSchema({ all_tags: ["browser:context"] }, PAGE)).toBe(true);
  });
  it("a selector naming other schemas cannot", () => {
    expect(selectorCanMatchSchema({ schema_name: "chat.message.v1" }, PAGE)).toBe(false);
    expect(selectorCanMatchSchema({ schema_name: ["chat.message.v1", "agent.def.v1"] }, PAGE)).toBe(false);
  });
});
