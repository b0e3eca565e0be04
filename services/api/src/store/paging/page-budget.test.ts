import { describe, expect, it } from "vitest";
import { PageBudget } from "./page-budget.ts";
import { readSized, type Sized } from "./sized-read.ts";

describe("PageBudget", () => {
  it("takes rows until the next would pass the byte budget", () => {
    const b = new PageBudget({ rows: 100, bytes: 1_000 });
    expect(b.fit([300, 300, 300, 300])).toBe(3);
    expect(b.bytes).toBe(900);
    expect(b.fit([50, 60])).toBe(1);
    expect(b.bytes).toBe(950);
  });

  it("lets a row larger than the whole budget out alone, never with others", () => {
    const b = new PageBudget({ rows: 100, bytes: 1_000 });
    expect(b.fit([5_000, 10])).toBe(1);
    expect(b.nextProbe()).toBe(0);
    const c = new PageBudget({ rows: 100, bytes: 1_000 });
    expect(c.fit([10, 5_000])).toBe(1);
  });

  it("stops at the row limit", () => {
    const b = new PageBudget({ rows: 2, bytes: 1_000_000 });
    expect(b.fit([1, 1, 1])).toBe(2);
    expect(b.nextProbe()).toBe(0);
  });

  it("probes a few first, then as many rows as the sizes seen say fit, plus one to learn if more follow", () => {
    const b = new PageBudget({ rows: 1_000, bytes: 4_000_000 });
    expect(b.nextProbe()).toBe(5);
    b.fit(Array.from({ length: 4 }, () => 1_000));
    expect(b.nextProbe()).toBe(997); // the 996 rows still wanted, and one
    const big = new PageBudget({ rows: 1_000, bytes: 4_000_000 });
    big.fit([700_000, 700_000, 700_000, 700_000, 700_000]);
    expect(big.nextProbe()).toBe(2); // 500 KB left: one more row may fit, and one to look past it
  });
});

describe("readSized", () => {
  /** Rows 1..n of `size(i)` bytes, read by keyset. */
  const source = (n: number, size: (i: number) => number) => {
    const fetched: number[][] = [];
    const rows = Array.from({ length: n }, (_, i) => i + 1);
    return {
      fetched,
      probe: async (after: number | undefined, k: number): Promise<Sized<number>[]> =>
        rows.filter((r) => r > (after ?? 0)).slice(0, k).map((r) => ({ key: r, bytes: size(r) })),
      fetch: async (keys: number[]) => {
        fetched.push(keys);
        return keys.map((k) => ({ k }));
      },
    };
  };

  it("fetches only the rows that fit and says more follow", async () => {
    const src = source(100, () => 700_000);
    const seen: number[] = [];
    const { more } = await readSized(new PageBudget({ rows: 1_000, bytes: 4_000_000 }), undefined, {
      ...src,
      onRow: (r) => (seen.push(r.k), true),
    });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(src.fetched.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(more).toBe(true);
  });

  it("reads to the end of a small history and says nothing follows", async () => {
    const src = source(40, () => 100);
    const seen: number[] = [];
    const { more } = await readSized(new PageBudget({ rows: 1_000, bytes: 4_000_000 }), 10, { ...src, onRow: (r) => (seen.push(r.k), true) });
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i + 11));
    expect(more).toBe(false);
  });

  it("stops where the caller says the page is complete", async () => {
    const src = source(40, () => 100);
    const seen: number[] = [];
    const { more } = await readSized(new PageBudget({ rows: 1_000, bytes: 4_000_000 }), undefined, {
      ...src,
      onRow: (r) => (seen.push(r.k), seen.length < 3),
    });
    expect(seen).toEqual([1, 2, 3]);
    expect(more).toBe(true);
  });

  it("skips a row gone between sizing and fetching, and continues after it", async () => {
    const src = source(3, () => 100);
    const seen: number[] = [];
    await readSized(new PageBudget({ rows: 10, bytes: 4_000 }), undefined, {
      probe: src.probe,
      fetch: async (keys) => keys.map((k) => (k === 2 ? undefined : { k })),
      onRow: (r) => (seen.push(r.k), true),
    });
    expect(seen).toEqual([1, 3]);
  });
});
