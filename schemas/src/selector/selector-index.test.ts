import { describe, expect, it } from "vitest";
import { compileSelector, type SelectorTarget } from "./selector-compile.ts";
import { SelectorIndex } from "./selector-index.ts";
import type { Selector } from "./selector-schema.ts";

const SCHEMAS = ["browser.page.context.v1", "chat.message.v1", "agent.response.v1", "browser.action.v1"];

// A deterministic generator, so a failure reproduces.
// mulberry32
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeSelectors(n: number, rand: () => number): Selector[] {
  const out: Selector[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    const sel: Selector = {};
    if (r < 0.9) sel.schema_name = SCHEMAS[Math.floor(rand() * SCHEMAS.length)]!;
    if (r < 0.05) sel.schema_name = [SCHEMAS[0]!, SCHEMAS[1]!];
    const kind = i % 4;
    if (kind === 0) sel.all_tags = [`session:${i % 500}`];
    if (kind === 1) sel.any_tags = [`extension:${i % 300}`, `session:${(i * 7) % 500}`];
    if (kind === 2) sel.all_tags = ["browser:active-tab", `extension:${i % 300}`];
    // A few broad subscriptions (schema only, or nothing) that every event must test.
    if (kind === 3) sel.all_tags = i % 100 === 3 ? [] : [`user:${i % 1000}`];
    if (rand() < 0.3) sel.context_match = [{ path: "$.n", op: "gte", value: Math.floor(rand() * 10) }];
    if (rand() < 0.05) sel.none_tags = ["muted"];
    out.push(sel);
  }
  return out;
}

function makeEvents(n: number, rand: () => number): SelectorTarget[] {
  return Array.from({ length: n }, (_, i) => ({
    schema_name: SCHEMAS[i % SCHEMAS.length]!,
    tags: [`session:${Math.floor(rand() * 500)}`, `extension:${Math.floor(rand() * 300)}`, `user:${Math.floor(rand() * 1000)}`, ...(rand() < 0.5 ? ["browser:active-tab"] : []), ...(rand() < 0.1 ? ["muted"] : [])],
    context: { n: Math.floor(rand() * 10) },
  }));
}

describe("SelectorIndex", () => {
  it("finds exactly what testing every selector finds, in insertion order", () => {
    const rand = rng(42);
    const selectors = makeSelectors(3000, rand);
    const index = new SelectorIndex<number>();
    selectors.forEach((s, i) => index.add(`s${i}`, s, i));
    const compiled = selectors.map((s) => compileSelector(s));
    for (const ev of makeEvents(300, rand)) {
      const expected = compiled.flatMap((c, i) => (c.matches(ev) ? [i] : []));
      expect(index.match(ev)).toEqual(expected);
    }
  }, 30_000);

  it("add replaces, remove forgets", () => {
    const index = new SelectorIndex<string>();
    const ev = { schema_name: "chat.message.v1", tags: ["user:message"], context: {} };
    index.add("a", { schema_name: "chat.message.v1" }, "first");
    index.add("a", { any_tags: ["user:message"] }, "second");
    index.add("b", {}, "everything");
    expect(index.size).toBe(2);
    expect(index.match(ev)).toEqual(["second", "everything"]);
    expect(index.remove("a")).toBe(true);
    expect(index.remove("a")).toBe(false);
    expect(index.match(ev)).toEqual(["everything"]);
    expect(index.has("b")).toBe(true);
  });

  it("accepts compiled selectors and rejects invalid ones", () => {
    const index = new SelectorIndex<number>();
    index.add("c", compileSelector({ all_tags: ["x"] }), 1);
    expect(index.match({ schema_name: "a.v1", tags: ["x"], context: {} })).toEqual([1]);
    expect(() => index.add("bad", { context_match: [{ path: "nope", op: "eq", value: 1 }] }, 2)).toThrow(/JSONPath/);
    expect(index.has("bad")).toBe(false);
  });

  it("a selector with a long schema_name list and many any_tags still matches", () => {
    const index = new SelectorIndex<string>();
    const names = Array.from({ length: 20 }, (_, i) => `s${i}.v1`);
    const tags = Array.from({ length: 20 }, (_, i) => `t${i}`);
    index.add("wide", { schema_name: names, any_tags: tags }, "wide");
    expect(index.match({ schema_name: "s7.v1", tags: ["t13"], context: {} })).toEqual(["wide"]);
    expect(index.match({ schema_name: "s7.v1", tags: ["zz"], context: {} })).toEqual([]);
  });

  it("tests only a few candidates per event at 10,000 subscriptions", () => {
    const rand = rng(11);
    const index = new SelectorIndex<number>();
    let tested = 0;
    makeSelectors(10_000, rand).forEach((s, i) => {
      const c = compileSelector(s);
      index.add(`s${i}`, { selector: c.selector, matches: (b: SelectorTarget) => (tested++, c.matches(b)) }, i);
    });
    const events = makeEvents(200, rand);
    for (const ev of events) index.match(ev);
    // Load-independent measure of the work saved: candidates tested instead of 10,000.
    expect(tested / events.length).toBeLessThan(100);
  }, 30_000);

  it("is much faster than testing 10,000 selectors one by one", () => {
    const rand = rng(7);
    const selectors = makeSelectors(10_000, rand);
    const index = new SelectorIndex<number>();
    selectors.forEach((s, i) => index.add(`s${i}`, s, i));
    const compiled = selectors.map((s) => compileSelector(s));
    const events = makeEvents(200, rand);
    const time = (fn: () => void) => {
      const t0 = performance.now();
      fn();
      return performance.now() - t0;
    };
    // The machine is shared: alternate the two and keep each one's best round.
    let indexed = Infinity;
    let naive = Infinity;
    for (let round = 0; round < 5; round++) {
      indexed = Math.min(indexed, time(() => events.forEach((ev) => index.match(ev))));
      naive = Math.min(naive, time(() => events.forEach((ev) => compiled.forEach((c) => c.matches(ev)))));
    }
    const perEventUs = (indexed / events.length) * 1000;
    console.log(`SelectorIndex 10k: ${perEventUs.toFixed(1)} µs/event, ${(naive / indexed).toFixed(1)}x faster than one by one`);
    // The selector-routing benchmark (BENCHMARKS.md) aims at > 20x and < 50 µs on a quiet machine;
    // these bounds survive a loaded CI.
    expect(naive / indexed).toBeGreaterThan(5);
    expect(perEventUs).toBeLessThan(500);
  }, 30_000);
});
