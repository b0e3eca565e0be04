import { afterAll, describe, expect, it } from "vitest";

describe("a suite whose teardown throws", () => {
  afterAll(() => {
    throw new Error("teardown broke");
  });
  it("passes", () => expect(1).toBe(1));
});
