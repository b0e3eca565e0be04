import { describe, expect, it } from "vitest";
import { selectorError } from "./selector-input.ts";

describe("selectorError", () => {
  it("accepts an empty field or a JSON object, and names what is wrong otherwise", () => {
    expect(selectorError("  ")).toBeUndefined();
    expect(selectorError('{"schema_name":"chat.message.v1"}')).toBeUndefined();
    expect(selectorError("[1]")).toBe("the selector must be a JSON object");
    expect(selectorError("null")).toBe("the selector must be a JSON object");
    expect(selectorError("{schema_name:")).toMatch(/^the selector is not JSON: /);
  });
});
