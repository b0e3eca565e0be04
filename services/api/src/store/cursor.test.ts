import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.ts";

describe("cursor", () => {
  it("round-trips and rejects anything it did not issue", () => {
    const c = encodeCursor(["2024-01-01T00:00:00.000Z", "a"]);
    expect(decodeCursor(c, ["string", "string"])).toEqual(["2024-01-01T00:00:00.000Z", "a"]);
    expect(() => decodeCursor(c, ["number"])).toThrow(/cursor/);
    expect(() => decodeCursor("!!!", ["number"])).toThrow(/cursor/);
    expect(() => decodeCursor(encodeCursor([1]), ["string"])).toThrow(/cursor/);
  });
});
