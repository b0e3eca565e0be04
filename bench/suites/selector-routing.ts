import {
  REFERENCE_PAGE_CONTEXT,
  SelectorIndex,
  compileSelector,
  type CompiledSelector,
  type SelectorTarget,
} from "@crumbs/schemas";
import type { Suite } from "../types.ts";
import { median, percentile, round } from "../stats.ts";
import { lowerIsBetter } from "../lib/figures.ts";

const SUBSCRIPTIONS = 10_000;

/**
 * A mix like a busy team's: per-extension page and action watchers, chat sessions, per-domain
 * watchers with a context_match, a few schema-wide regex watchers and a handful of catch-alls.
 */
function subscription(i: number, broadPerMille: number): unknown {
  // Schema-wide watchers: every page context is a candidate for them, whatever the index does.
  if (i % 1000 < broadPerMille)
    return {
      schema_name: "browser.page.context.v1",
      all_tags: ["browser:active-tab"],
      none_tags: [`extension:ext${i}`],
      context_match: [{ path: "$.url", op: "matches", value: `site${i % 500}\\.com/docs` }],
    };
  const k = i % 100;
  if (k < 40)
    return { schema_name: "browser.page.context.v1", all_tags: ["browser:context", `extension:ext${i}`] };
  if (k < 60) return { schema_name: "browser.action.v1", all_tags: ["browser:action", `extension:ext${i}`] };
  if (k < 80) return { schema_name: "chat.message.v1", all_tags: ["user:message", `session:s${i}`] };
  if (k < 99)
    return {
      schema_name: "browser.page.context.v1",
      any_tags: [`url:site${i % 500}.com`],
      context_match: [{ path: "$.viewport.scrollY", op: "gte", value: 100 }],
    };
  return i % 1000 === 99 ? {} : { any_tags: ["priority:high"] };
}

function event(j: number): SelectorTarget {
  const ext = (j * 97) % SUBSCRIPTIONS;
  return {
    schema_name: "browser.page.context.v1",
    tags: ["browser:context", "browser:active-tab", `extension:ext${ext}`, `url:site${j % 500}.com`],
    context: {
      ...REFERENCE_PAGE_CONTEXT,
      url: `https://site${j % 500}.com/docs/${j}`,
      viewport: { width: 1280, height: 800, scrollX: 0, scrollY: j % 300 },
    },
  };
}

/** Median per-call time in microseconds, timing batches of `batch` calls (timer resolution). */
function timeCalls(
  events: SelectorTarget[],
  rounds: number,
  batch: number,
  fn: (e: SelectorTarget) => unknown,
): number[] {
  const out: number[] = [];
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let b = 0; b < batch; b++) {
      const x = fn(events[(r * batch + b) % events.length]!);
      sink += Array.isArray(x) ? x.length : x ? 1 : 0;
    }
    out.push(Number(process.hrtime.bigint() - t0) / 1000 / batch);
  }
  if (sink < 0) console.log(sink);
  return out;
}

function measureMix(broadPerMille: number, quick: boolean, log: (m: string) => void) {
  const index = new SelectorIndex<number>();
  const all: CompiledSelector[] = [];
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const c = compileSelector(subscription(i, broadPerMille));
    all.push(c);
    index.add(String(i), c, i);
  }
  const events = Array.from({ length: 200 }, (_, j) => event(j));
  const linear = (e: SelectorTarget) => {
    const hits: number[] = [];
    for (let i = 0; i < all.length; i++) if (all[i]!.matches(e)) hits.push(i);
    return hits;
  };
  // Same answers, or the comparison is meaningless.
  for (const e of events.slice(0, 50)) {
    const a = index.match(e).join(",");
    const b = linear(e).join(",");
    if (a !== b) throw new Error(`index and linear scan disagree: ${a} vs ${b}`);
  }
  const matched = events.reduce((n, e) => n + index.match(e).length, 0) / events.length;
  timeCalls(events, 200, 10, (e) => index.match(e)); // warm-up (JIT)
  timeCalls(events, 20, 1, linear);
  const rounds = quick ? 500 : 2_000;
  const idx = timeCalls(events, rounds, 10, (e) => index.match(e));
  const lin = timeCalls(events, quick ? 50 : 200, 1, linear);
  log(
    `${broadPerMille / 10}% schema-wide: index median ${median(idx).toFixed(2)} µs, linear median ${median(lin).toFixed(1)} µs, ${matched.toFixed(1)} matches per event`,
  );
  return { idx, lin, matched };
}

export const selectorRouting: Suite = {
  name: "selector-routing",
  description: "one event against 10,000 subscriptions: SelectorIndex beside testing every selector",
  async run({ quick, log }) {
    // The typical mix has 0.5% schema-wide watchers; the heavy one 4%, to show what they cost.
    const typical = measureMix(5, quick, log);
    const heavy = measureMix(40, quick, log);
    const idx = typical.idx;
    const lin = typical.lin;
    const indexed = lowerIsBetter({
      metric: "match 1 event / 10k subs, median (typical mix)",
      value: round(median(idx), 2),
      unit: "µs",
      baseline: { name: "test every selector", value: round(median(lin), 1), unit: "µs" },
      goal: ">= 20x faster, < 50 µs",
    });
    return {
      suite: "selector-routing",
      figures: [
        { ...indexed, met: (indexed.ratio ?? 0) >= 20 && indexed.value < 50 },
        lowerIsBetter({
          metric: "match 1 event / 10k subs, median (4% schema-wide)",
          value: round(median(heavy.idx), 2),
          unit: "µs",
          baseline: { name: "test every selector", value: round(median(heavy.lin), 1), unit: "µs" },
        }),
        lowerIsBetter({
          metric: "match 1 event / 10k subs, p99 (typical mix)",
          value: round(percentile(idx, 99), 2),
          unit: "µs",
          baseline: { name: "test every selector", value: round(percentile(lin, 99), 1), unit: "µs" },
        }),
      ],
      params: {
        subscriptions: SUBSCRIPTIONS,
        matches_per_event: typical.matched,
        index_samples: idx.length,
        linear_samples: lin.length,
      },
    };
  },
};
