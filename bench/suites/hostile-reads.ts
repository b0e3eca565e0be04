import { readFile } from "node:fs/promises";
import { spawnHeavyReader } from "@crumbs/testkit";
import type { Suite } from "../types.ts";
import { percentile, round } from "../stats.ts";
import { lowerIsBetter } from "../lib/figures.ts";
import { HttpClient } from "../lib/http.ts";
import { startStack } from "../lib/stack.ts";

const ROW_CHARS = 700 * 1024;
const LOOPS = 4;
const STREAMS = 4;
const MiB = 1024 * 1024;
/**
 * The owners' request budget (CRUMBS_RATE_LIMIT, one bucket per owner), set here rather than taken from the API's
 * default so the calm owner's pace below follows it. A calm owner stays under its budget: on a quiet machine
 * (2026-11-29, load 1) the unpaced rounds ran ~70 requests/s, past the default 50/s once the burst of 200 was
 * spent, and 85 of the calm owner's 590 requests were its own 429s, five of them a read after its write.
 */
const RATE = { perSecond: 50, burst: 200 };
const CALM_INTERVAL_MS = 1_000 / (RATE.perSecond * 0.8);

/** The API process's resident set now, from the kernel (VmRSS; VmHWM cannot be reset between phases). */
async function rss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
}

/** Samples the API's RSS every 100 ms until stopped; resolves with the largest. */
function peakSampler(pid: number): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      peak = Math.max(peak, await rss(pid).catch(() => 0));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return peak;
    },
  };
}

export const hostileReads: Suite = {
  name: "hostile-reads",
  description: `a calm owner's reads and writes, alone and while another owner pages its history of ~700 KB breadcrumbs in ${LOOPS} loops of /v1/events?limit=1000 and ${STREAMS} SSE streams from seq 0`,
  async run({ quick, log }) {
    const rows = quick ? 40 : 80;
    const rounds = quick ? 40 : 100;
    const stack = await startStack({ env: { CRUMBS_RATE_LIMIT: `${RATE.perSecond}:${RATE.burst}` } });
    try {
      const newKey = async (owner: string, scopes: string[]) =>
        (await stack.http.json<{ token: string }>("POST", "/v1/keys", 201, { body: { owner, scopes } })).token;
      const hostileKeys = [];
      for (let i = 0; i < LOOPS; i++) hostileKeys.push(await newKey("hostile", ["read", "write", "subscribe"]));
      const calm = new HttpClient(stack.api.url, await newKey("calm", ["read", "write"]), 4);
      const hostile = new HttpClient(stack.api.url, hostileKeys[0]!, 4);
      log(`seeding ${rows} breadcrumbs of ${ROW_CHARS / 1024} KB`);
      for (let i = 0; i < rows; i++) {
        const block = Array.from({ length: 64 }, (_, j) => `row ${i} line ${j} `).join("").padEnd(1024, ".");
        const text = block.repeat(Math.ceil(ROW_CHARS / 1024)).slice(0, ROW_CHARS);
        await hostile.json("POST", "/v1/breadcrumbs", 201, { body: { schema_name: "bench.big.v1", title: `big ${i}`, context: { text } } });
      }
      hostile.close();

      let wrong = 0;
      const statuses: Record<string, number> = {};
      const ids: string[] = [];
      const measure = async (n: number) => {
        const lat: number[] = [];
        const start = performance.now();
        const timed = async (method: "GET" | "POST", path: string, body?: unknown) => {
          // An open schedule at 80% of the owner's rate: a late request starts at once, an early one waits its slot.
          const due = start + lat.length * CALM_INTERVAL_MS;
          if (performance.now() < due) await new Promise((r) => setTimeout(r, due - performance.now()));
          const t = performance.now();
          const res = await calm.request(method, path, body === undefined ? {} : { body });
          lat.push(performance.now() - t);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          return res;
        };
        for (let i = 0; i < n; i++) {
          const created = await timed("POST", "/v1/breadcrumbs", { schema_name: "bench.calm.v1", title: `calm ${ids.length}`, context: { n: ids.length } });
          if (created.status !== 201) continue;
          const id = (JSON.parse(created.body) as { id: string }).id;
          ids.push(id);
          const read = await timed("GET", `/v1/breadcrumbs/${id}`);
          if (read.status !== 200 || (JSON.parse(read.body) as { id: string }).id !== id) wrong++;
          const list = await timed("GET", "/v1/breadcrumbs?limit=10");
          if (list.status !== 200 || (JSON.parse(list.body) as { items: { id: string }[] }).items[0]?.id !== id) wrong++;
        }
        return { p50: percentile(lat, 50), p99: percentile(lat, 99), requests: lat.length };
      };

      await measure(10); // warm-up
      let sampler = peakSampler(stack.api.pid);
      log(`alone: ${rounds} rounds of write, read, list`);
      const alone = await measure(rounds);
      const alonePeak = await sampler.stop();

      const heavy = await spawnHeavyReader({ url: stack.api.url, tokens: hostileKeys, loops: LOOPS, streams: STREAMS, events: rows });
      sampler = peakSampler(stack.api.pid);
      while (heavy.stats.pages < LOOPS * 2) await new Promise((r) => setTimeout(r, 50));
      log(`with the hostile reader: ${rounds} rounds`);
      const besieged = await measure(rounds);
      const stats = await heavy.stop();
      const besiegedPeak = await sampler.stop();
      calm.close();

      return {
        suite: "hostile-reads",
        figures: [
          lowerIsBetter({ metric: "calm owner request p50, hostile reader running", value: round(besieged.p50), unit: "ms", baseline: { name: "alone", value: round(alone.p50), unit: "ms" } }),
          {
            ...lowerIsBetter({ metric: "calm owner request p99, hostile reader running", value: round(besieged.p99), unit: "ms", baseline: { name: "alone", value: round(alone.p99), unit: "ms" } }),
            goal: "< 1,000 ms, every answer right",
            met: besieged.p99 < 1_000 && wrong === 0,
          },
          {
            ...lowerIsBetter({ metric: "API peak RSS, hostile reader running", value: round(besiegedPeak / MiB, 0), unit: "MiB", baseline: { name: "alone", value: round(alonePeak / MiB, 0), unit: "MiB" } }),
            goal: "< 1,024 MiB",
            met: besiegedPeak < 1024 * MiB,
          },
        ],
        params: {
          rows,
          row_chars: ROW_CHARS,
          loops: LOOPS,
          streams: STREAMS,
          rounds,
          calm_requests: { alone: alone.requests, besieged: besieged.requests },
          calm_statuses: statuses,
          calm_wrong_answers: wrong,
          hostile: stats,
        },
      };
    } finally {
      await stack.close();
    }
  },
};
