import postgres from "postgres";
import { fillSyntheticBreadcrumbs, SYNTHETIC } from "@crumbs/testkit";
import type { Figure, Suite } from "../types.ts";
import { percentile, round } from "../stats.ts";
import { lowerIsBetter } from "../lib/figures.ts";
import { HttpClient } from "../lib/http.ts";
import { startStack } from "../lib/stack.ts";

// How read latency grows with the data: the same requests at 10,000, 100,000 and 1,000,000
// breadcrumbs (10 owners, a history row for each), one owner's key, one request at a time.
// Goals (docs/scaling.md, "Reads at scale"): every request under 20 ms p50 at the largest size, and
// none more than 3x slower there than at 10,000. The rows are written by SQL (testkit's
// fillSyntheticBreadcrumbs), each size in a fresh database dropped afterwards. Beside each figure,
// GET /healthz (no database work) measured the same way in the same run: what the HTTP round
// trip and the machine's load cost before any query.
//
// The TTL and retention sweeper runs once at start-up (on the empty database) and not again
// during the run (CRUMBS_SWEEP_MS at its largest), so the figures are the reads' alone. (Its
// retention pass once ranked all of a schema's history per batch and ran past the 10 s statement
// timeout at 100,000 rows per schema; it now walks a window of rows per batch, retention/prune.ts.)

const OWNERS = 10;
const OWNER_NO = 3;
const OWNER = `${SYNTHETIC.ownerPrefix}${OWNER_NO}`;
const WARMUP = 5;
const SAMPLES = 60;
const P50_GOAL_MS = 20;
const GROWTH_GOAL = 3;

interface Request {
  name: string;
  path: (ctx: { rows: number; id: string }) => string;
}

/** The owner's j-th row (0-based) of a run with `rows` rows: its generate_series number. */
const rowNo = (j: number) => j * OWNERS + OWNER_NO;
/** A page context of the owner half way through its rows (j % 4 === 0 is a page context). */
const midPage = (rows: number) => rowNo(Math.floor(rows / OWNERS / 8) * 4);

const selector = (rows: number) =>
  encodeURIComponent(JSON.stringify({ context_match: [{ path: "$.url", op: "eq", value: SYNTHETIC.urlOf(midPage(rows)) }] }));

const REQUESTS: Request[] = [
  { name: "list newest 50", path: () => "/v1/breadcrumbs?limit=50" },
  { name: "list one schema", path: () => `/v1/breadcrumbs?schema_name=${SYNTHETIC.pageSchema}&limit=50` },
  { name: "list common tag", path: () => `/v1/breadcrumbs?tag=${encodeURIComponent(SYNTHETIC.commonTag)}&limit=50` },
  { name: "title rare word", path: () => `/v1/breadcrumbs?title=${SYNTHETIC.rareWord}` },
  { name: "selector $.url eq", path: ({ rows }) => `/v1/breadcrumbs?limit=50&selector=${selector(rows)}` },
  { name: "counts per schema", path: () => "/v1/stats/schemas" },
  { name: "events after mid", path: ({ rows }) => `/v1/events?after=${Math.floor(rows / 2)}&limit=100` },
  { name: "one breadcrumb's history", path: ({ id }) => `/v1/breadcrumbs/${id}/history` },
];

interface Measured {
  rows: number;
  healthz_p50: number;
  load_s: number;
  p50: Record<string, number>;
  p99: Record<string, number>;
  answers: Record<string, string>;
}

async function measureSize(rows: number, log: (m: string) => void): Promise<Measured> {
  // One key sends its requests back to back, past the per-owner rate limit (limits are the owner's
  // since reads were shared fairly): the limiter's 429s would end the run, and its figures are the reads'.
  const stack = await startStack({ env: { CRUMBS_SWEEP_MS: "3600000", CRUMBS_RATE_LIMIT: "off" } });
  const sql = postgres(stack.db.url, { max: 1, onnotice: () => {} });
  let reader: HttpClient | undefined;
  try {
    const t0 = performance.now();
    await fillSyntheticBreadcrumbs(sql, { rows, owners: OWNERS });
    const load_s = round((performance.now() - t0) / 1000, 1);
    log(`${rows} breadcrumbs and ${rows} history rows loaded in ${load_s} s`);
    const key = await stack.http.json<{ token: string }>("POST", "/v1/keys", 201, { body: { owner: OWNER, scopes: ["read"], name: "scale" } });
    reader = new HttpClient(stack.api.url, key.token, 1);
    const [{ id } = { id: "" }] = await sql<{ id: string }[]>`SELECT id::text FROM breadcrumbs WHERE owner = ${OWNER} ORDER BY updated_at LIMIT 1 OFFSET ${Math.floor(rows / OWNERS / 2)}`;
    const time = async (path: string) => {
      const times: number[] = [];
      let body = "";
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        const t = performance.now();
        const res = await reader!.request("GET", path);
        const ms = performance.now() - t;
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.slice(0, 300)}`);
        if (i >= WARMUP) times.push(ms);
        body = res.body;
      }
      return { times, body };
    };
    const healthz = await time("/healthz");
    const out: Measured = { rows, load_s, healthz_p50: round(percentile(healthz.times, 50), 2), p50: {}, p99: {}, answers: {} };
    log(`${rows}: GET /healthz p50 ${out.healthz_p50} ms`);
    for (const req of REQUESTS) {
      const { times, body } = await time(req.path({ rows, id }));
      const answer = `200, ${(JSON.parse(body) as { items: unknown[] }).items.length} items`;
      out.p50[req.name] = round(percentile(times, 50), 2);
      out.p99[req.name] = round(percentile(times, 99), 2);
      out.answers[req.name] = answer;
      log(`${rows}: ${req.name.padEnd(26)} p50 ${out.p50[req.name]} ms, p99 ${out.p99[req.name]} ms (${answer})`);
    }
    return out;
  } finally {
    reader?.close();
    await sql.end();
    await stack.close();
  }
}

export const scale: Suite = {
  name: "scale",
  description: "read latency of lists, searches, counts and history at 10k, 100k and 1M breadcrumbs (--quick: 10k and 100k)",
  async run({ quick, log }) {
    const sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
    const runs: Measured[] = [];
    for (const rows of sizes) runs.push(await measureSize(rows, log));
    const first = runs[0]!;
    const last = runs.at(-1)!;
    const figures: Figure[] = [];
    for (const req of REQUESTS) {
      for (const r of runs) {
        const atLargest = r === last && r !== first;
        figures.push({
          ...lowerIsBetter({
            metric: `${req.name} p50 @${r.rows / 1000}k`,
            value: r.p50[req.name]!,
            unit: "ms",
            baseline: { name: "GET /healthz", value: r.healthz_p50, unit: "ms" },
          }),
          ...(atLargest ? { goal: `< ${P50_GOAL_MS} ms`, met: r.p50[req.name]! < P50_GOAL_MS } : {}),
        });
        figures.push({ metric: `${req.name} p99 @${r.rows / 1000}k`, value: r.p99[req.name]!, unit: "ms" });
      }
      const growth = round(last.p50[req.name]! / first.p50[req.name]!, 2);
      figures.push({
        metric: `${req.name} p50 growth ${first.rows / 1000}k -> ${last.rows / 1000}k`,
        value: growth,
        unit: "x",
        goal: `<= ${GROWTH_GOAL}x`,
        met: growth <= GROWTH_GOAL,
      });
    }
    for (const r of runs) figures.push({ metric: `load ${r.rows / 1000}k rows (+ history)`, value: r.load_s, unit: "s" });
    return {
      suite: "scale",
      figures,
      params: { sizes, owners: OWNERS, owner: OWNER, samples: SAMPLES, warmup: WARMUP, answers: Object.fromEntries(runs.map((r) => [r.rows, r.answers])) },
    };
  },
};
