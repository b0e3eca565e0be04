import { connect } from "nats";
import type { Suite } from "../types.ts";
import { percentile, round } from "../stats.ts";
import { lowerIsBetter } from "../lib/figures.ts";
import { HttpClient } from "../lib/http.ts";
import { openLoop } from "../lib/load.ts";
import { startStack, TOKEN } from "../lib/stack.ts";

const RATE = 20;
const HOSTILE_WORKERS = 4;
const HOSTILE_ROWS = 10;
/** Client-side cap on one hostile request, so a bus that does stall still lets the run finish. */
const HOSTILE_TIMEOUT_MS = 10_000;

/** The hostile values: overlapping alternation, repeated `..*` on a 30-level object, nested #each. */
const evilRegex = { context_match: [{ path: "$.s", op: "matches", value: "^(a|a)*$" }] };
const evilPath = { context_match: [{ path: "$..*..*..*..*", op: "exists" }] };
const nestedEach = "{{#each context.items}}{{#each @root.context.items}}{{#each @root.context.items}}x{{/each}}{{/each}}{{/each}}";

function deepObject(levels: number): Record<string, unknown> {
  let o: Record<string, unknown> = { v: 1 };
  for (let i = 0; i < levels; i++) o = { a: o, b: i };
  return o;
}

export const hostileNeighbour: Suite = {
  name: "hostile-neighbour",
  description: `a well-behaved owner's write->event latency at ${RATE} writes/s, alone and while another owner runs expensive selectors and llm views`,
  async run({ quick, log }) {
    const count = quick ? 200 : 600;
    const stack = await startStack();
    const nc = await connect({ servers: stack.nats.url });
    try {
      // The well-behaved owner is an API key (rate limited like any tenant, well under it);
      // the hostile one uses the admin token, which has no rate limit: the worst case.
      const key = await stack.http.json<{ token: string }>("POST", "/v1/keys", 201, { body: { owner: "alice", scopes: ["read", "write"] } });
      const alice = new HttpClient(stack.api.url, key.token, 8);
      const hostileRows: string[] = [];
      let hintsRefused = 0;
      for (let i = 0; i < HOSTILE_ROWS; i++) {
        const context = { s: "a".repeat(24) + "b", deep: deepObject(30), items: Array.from({ length: 300 }, (_, j) => j) };
        const body = { schema_name: "bench.hostile.v1", title: `hostile ${i}`, context, llm_hints: { transform: { t: { type: "template", template: nestedEach } } } };
        let res = await stack.http.request("POST", "/v1/breadcrumbs", { body });
        if (res.status === 422) {
          // The write-time budget refused the hints: keep the row for the selectors.
          hintsRefused++;
          res = await stack.http.request("POST", "/v1/breadcrumbs", { body: { ...body, llm_hints: undefined } });
        }
        if (res.status !== 201) throw new Error(`hostile row: ${res.status} ${res.body.slice(0, 200)}`);
        hostileRows.push((JSON.parse(res.body) as { id: string }).id);
      }
      const { id: aliceId } = await alice.json<{ id: string }>("POST", "/v1/breadcrumbs", 201, { body: { schema_name: "bench.calm.v1", title: "calm", context: { n: 0 } } });

      const seen = new Map<number, number>();
      const sub = nc.subscribe("crumbs.alice.>", {
        callback: (_err, m) => seen.set(m.json<{ version: number }>().version, performance.now()),
      });
      let version = 1;
      const sent = new Map<number, number>();
      // A refused calm write (a 503 because the hostile work starved the database pool, a 5xx) is
      // counted, not fatal: it is what this suite is about.
      const failedWrites: Record<string, number> = {};
      const write = async () => {
        const res = await alice.request("PATCH", `/v1/breadcrumbs/${aliceId}`, { body: { context: { n: version } }, headers: { "if-match": `"${version}"` } });
        if (res.status !== 200) {
          failedWrites[res.status] = (failedWrites[res.status] ?? 0) + 1;
          return;
        }
        version++;
        sent.set(version, performance.now());
      };
      const measure = async (n: number) => {
        sent.clear();
        for (const k of Object.keys(failedWrites)) delete failedWrites[k];
        // One write at a time: the If-Match chain needs it, and a tenant writing steadily is the point.
        // A write still in flight when the next is due makes openLoop skip that one: counted as not written.
        const { skipped, errors } = await openLoop({ ratePerSecond: RATE, count: n, maxInFlight: 1, op: write });
        if (errors > 0) failedWrites.network = errors;
        const deadline = Date.now() + 30_000;
        while ([...sent.keys()].some((v) => !seen.has(v)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        const lat = [...sent].map(([v, t]) => Math.max(0, (seen.get(v) ?? Number.NaN) - t));
        const failed = Object.values(failedWrites).reduce((a, b) => a + b, 0);
        return { p50: percentile(lat.filter(Number.isFinite), 50), p99: percentile(lat.filter(Number.isFinite), 99), missing: lat.filter((x) => !Number.isFinite(x)).length, failed, failedBy: { ...failedWrites }, written: sent.size, skipped };
      };

      await measure(20); // warm-up
      log(`alone: ${count} PATCHes at ${RATE}/s`);
      const alone = await measure(count);

      const statuses: Record<string, number> = {};
      const hostileTimes: number[] = [];
      let stop = false;
      const requests = [
        () => `/v1/breadcrumbs?schema_name=bench.hostile.v1&selector=${encodeURIComponent(JSON.stringify(evilRegex))}`,
        () => `/v1/breadcrumbs?schema_name=bench.hostile.v1&selector=${encodeURIComponent(JSON.stringify(evilPath))}`,
        () => `/v1/events?selector=${encodeURIComponent(JSON.stringify(evilRegex))}`,
        () => `/v1/breadcrumbs?schema_name=bench.hostile.v1&view=llm&limit=${HOSTILE_ROWS}`,
        (i: number) => `/v1/breadcrumbs/${hostileRows[i % hostileRows.length]}?view=llm`,
      ];
      const hostile = Array.from({ length: HOSTILE_WORKERS }, async (_, w) => {
        for (let i = w; !stop; i++) {
          const path = requests[i % requests.length]!(i);
          const t0 = performance.now();
          let status: string;
          try {
            const res = await fetch(`${stack.api.url}${path}`, {
              headers: { authorization: `Bearer ${TOKEN}` },
              signal: AbortSignal.timeout(HOSTILE_TIMEOUT_MS),
            });
            await res.arrayBuffer();
            status = String(res.status);
          } catch (err) {
            status = (err as Error).name === "TimeoutError" ? "timeout" : "error";
          }
          hostileTimes.push(performance.now() - t0);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      });
      log(`with ${HOSTILE_WORKERS} hostile clients: ${count} PATCHes at ${RATE}/s`);
      const besieged = await measure(count);
      stop = true;
      await Promise.all(hostile);
      await sub.drain();
      alice.close();

      return {
        suite: "hostile-neighbour",
        figures: [
          lowerIsBetter({ metric: "calm owner write->event p50, hostile owner running", value: round(besieged.p50), unit: "ms", baseline: { name: "alone", value: round(alone.p50), unit: "ms" } }),
          {
            ...lowerIsBetter({ metric: "calm owner write->event p99, hostile owner running", value: round(besieged.p99), unit: "ms", baseline: { name: "alone", value: round(alone.p99), unit: "ms" } }),
            goal: "< 1,000 ms",
            met: besieged.p99 < 1_000 && besieged.missing === 0,
          },
          {
            metric: `calm owner writes done of ${count} offered, hostile owner running`,
            value: besieged.written,
            unit: "writes",
            baseline: { name: "alone", value: alone.written, unit: "writes" },
            goal: ">= 95% of offered, none refused",
            met: besieged.written >= 0.95 * count && besieged.failed === 0,
          },
          { metric: "hostile request p99 (any status)", value: round(percentile(hostileTimes, 99)), unit: "ms", goal: "< 2,000 ms", met: percentile(hostileTimes, 99) < 2_000 && !statuses["500"] && !statuses["timeout"] },
        ],
        params: { rate: RATE, count, hostile_workers: HOSTILE_WORKERS, hostile_rows: HOSTILE_ROWS, hints_refused_at_write: hintsRefused, hostile_statuses: statuses, hostile_requests: hostileTimes.length, missing: { alone: alone.missing, besieged: besieged.missing }, calm_refused: { alone: alone.failedBy, besieged: besieged.failedBy }, calm_skipped: { alone: alone.skipped, besieged: besieged.skipped } },
      };
    } finally {
      await nc.close();
      await stack.close();
    }
  },
};
