import { describe, expect, it } from "vitest";
import { defaultPgPool } from "./pool-size.ts";

describe("defaultPgPool", () => {
  it("opens two connections per core, at least 4 and at most 16", () => {
    expect([1, 2, 3, 4, 8, 64].map((cores) => defaultPgPool(cores))).toEqual([4, 4, 6, 8, 16, 16]);
  });
});
