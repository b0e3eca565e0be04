import { describe, expect, it } from "vitest";
import { LazyQuery, withDeadline } from "./lazy-query.ts";

describe("LazyQuery", () => {
  it("starts only when awaited, once, with the values() flag", async () => {
    const starts: boolean[] = [];
    const q = new LazyQuery(async (values) => (starts.push(values), 42));
    expect(starts).toEqual([]);
    expect(await q.values()).toBe(42);
    expect(await q).toBe(42);
    expect(starts).toEqual([true]);
  });
});

describe("withDeadline", () => {
  it("rejects with the timeout error when the operation never settles", async () => {
    const never = () => new Promise<never>(() => {});
    await expect(withDeadline(never, 20, () => new Error("late"))).rejects.toThrow("late");
  });

  it("passes results and failures through, and turns a synchronous throw into a rejection", async () => {
    expect(await withDeadline(async () => "ok", 1_000, () => new Error("late"))).toBe("ok");
    await expect(
      withDeadline(
        () => {
          throw new TypeError("sync");
        },
        1_000,
        () => new Error("late"),
      ),
    ).rejects.toThrow("sync");
  });
});
