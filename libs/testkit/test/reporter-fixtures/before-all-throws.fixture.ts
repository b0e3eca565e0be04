import { beforeAll, expect, it } from "vitest";

beforeAll(() => {
  throw new Error("setup broke");
});
it("never runs", () => expect(1).toBe(1));
it("never runs either", () => expect(1).toBe(1));
