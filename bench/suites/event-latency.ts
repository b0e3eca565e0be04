import { connect } from "nats";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { DEFAULT_PG_POOL } from "@crumbs/api/testing";
import { STREAM_NAME, SUBJECT_PREFIX } from "@crumbs/schemas";
import { seriesValue } from "@crumbs/testkit";
import type { Suite } from "../types.ts";
import { percentile, round } from "../stats.ts";
import { lowerIsBetter } from "../lib/figures.ts";
import { localPostmaster } from "../lib/cpu-account.ts";
import { openLoop } from "../lib/load.ts";
import { samplePgActivity } from "../lib/pg-sampler.ts";
import { pageContext, pageContextPatchBody } from "../lib/page-context.ts";
import { quantileBound, readHistogram, type HistogramReading } from "../lib/prom-histogram.ts";
import { HttpClient } from "../lib/http.ts";
import { createPageContexts } from "../lib/seed-rows.ts";
import { startStack } from "../lib/stack.ts";
import { clockMs, startStreamListener, type StreamListener } from "../lib/stream-listener.ts";
import { patchStatement } from "./write-path-sql.ts";

const RATE = 1_000;
const HALF_RATE = 500;
const ROWS = 192;
const OWNERS = 16;
const ownerOf = (o: number) => `latency${o}`;

import { apiDelayFigure, breakdownFigures, DELAY_SERIES, latencies, partFigures, partsPerEvent, readParts, waitUntil } from "./event-latency-figures.ts";

export const eventLatency: Suite = {
  name: "event-latency",
  description: "HTTP response of a PATCH -> JetStream subscriber receives its event, 16 owners, at 500 and 1,000 writes/s",
  async run({ quick, log }) {
    const count = quick ? 2_000 : 10_000;
    // 1,000 writes/s from 16 keys is 62.5/s per key, past the default per-key rate limit (50/s):
    // the limiter would answer 429 and the figures would measure it, not the write->event path.
    const stack = await startStack({ relayPollMs: 1_000, env: { CRUMBS_RATE_LIMIT: "off" } });
    const nc = await connect({ servers: stack.nats.url });
    const admin = postgres(stack.db.url, { max: 1, onnotice: () => {} });
    const clients: HttpClient[] = [];
    const listeners: StreamListener[] = [];
    try {
      // 16 owners, each with a key of its own and ROWS / 16 rows, written in turn.
      for (let o = 0; o < OWNERS; o++) {
        const key = await stack.http.json<{ token: string }>("POST", "/v1/keys", 201, {
          body: { owner: ownerOf(o), scopes: ["read", "write"] },
        });
        clients.push(new HttpClient(stack.api.url, key.token, 4));
      }
      const perOwner = await Promise.all(
        clients.map((http, o) => createPageContexts(http, ROWS / OWNERS, 2, (k) => o + OWNERS * k)),
      );
      const rows = perOwner.flatMap((owned, o) => owned.map((r) => ({ ...r, owner: ownerOf(o), http: clients[o]! })));
      const free = [...rows];
      const listener = await startStreamListener({ natsUrl: stack.nats.url, stream: STREAM_NAME, filter: `${SUBJECT_PREFIX}.*.updated.>`, key: "msg-id" });
      listeners.push(listener);
      const sent = new Map<string, number>();
      let failed = 0;
      const failedBy: Record<string, number> = {};
      const write = async () => {
        const row = free.pop();
        if (!row) {
          failed++;
          return;
        }
        try {
          const res = await row.http.request("PATCH", `/v1/breadcrumbs/${row.id}`, {
            body: pageContextPatchBody(row.n, row.version + 1),
            headers: { "if-match": `"${row.version}"` },
          });
          const at = clockMs();
          if (res.status === 200) {
            row.version++;
            sent.set(`${row.id}:${row.version}`, at);
          } else {
            failed++;
            failedBy[res.status] = (failedBy[res.status] ?? 0) + 1;
          }
        } catch {
          // A socket that failed (the API closed it as it was reused): counted here, and the PATCH may
          // have committed, so the row's version is learnt again before its next use.
          failed++;
          failedBy.network = (failedBy.network ?? 0) + 1;
          const current = await row.http.json<{ version: number }>("GET", `/v1/breadcrumbs/${row.id}`, 200).catch(() => undefined);
          if (current) row.version = current.version;
        } finally {
          free.push(row);
        }
      };
      // What the API itself reports of the same events: crumbs_outbox_publish_delay_seconds, from the
      // write's statement to JetStream's ack (a bucket bound, not an exact figure).
      const metricsText = async () => (await fetch(`${stack.api.url}/metrics`)).text();
      // Of the events published, those the relay took as their write handed them over (no outbox read).
      const fromMemory = (text: string) => seriesValue(text, "crumbs_outbox_published_from_memory_total") ?? 0;
      const observed = (before: HistogramReading | undefined, after: HistogramReading | undefined) =>
        (after?.buckets.at(-1)?.count ?? 0) - (before?.buckets.at(-1)?.count ?? 0);
      const postmaster = await localPostmaster(admin);
      const relayBackend = async () =>
        (await admin<{ pid: number }[]>`
          select pid from pg_stat_activity where datname = current_database() and application_name = 'crumbs-relay'`)[0]?.pid;
      const measure = async (rate: number, n: number) => {
        sent.clear();
        const text0 = await metricsText();
        const before = readHistogram(text0, DELAY_SERIES);
        const relayPid = await relayBackend();
        const p0 = readParts(stack.api.pid, relayPid, postmaster);
        const r = await openLoop({ ratePerSecond: rate, count: n, maxInFlight: ROWS, op: write });
        const parts = partsPerEvent(p0, readParts(stack.api.pid, relayPid, postmaster), sent.size, relayPid !== undefined && relayPid === (await relayBackend()));
        await waitUntil(() => [...sent.keys()].every((k) => listener.seen.has(k)), 30_000);
        // The relay posts a batch's delays after its commit, a moment after the events reached the stream.
        let text1 = await metricsText();
        let after = readHistogram(text1, DELAY_SERIES);
        for (let i = 0; i < 20 && observed(before, after) < sent.size; i++) {
          await new Promise((res) => setTimeout(res, 100));
          text1 = await metricsText();
          after = readHistogram(text1, DELAY_SERIES);
        }
        const apiP99 = before && after ? quantileBound(before, after, 0.99) : undefined;
        const handed = observed(before, after) > 0 ? (fromMemory(text1) - fromMemory(text0)) / observed(before, after) : 0;
        return { ...latencies(sent, listener), achieved: sent.size / r.seconds, written: sent.size, skipped: r.skipped, apiP99, parts, handed };
      };
      await measure(RATE, 500); // warm-up
      log(`API: ${count} PATCHes offered at ${RATE}/s`);
      const a = await measure(RATE, count);
      const achieved = a.achieved;
      const slowRate = HALF_RATE;
      log(`API: ${count / 2} PATCHes offered at ${slowRate}/s`);
      const slow = await measure(slowRate, count / 2);
      // Where the write statements spend their time at this rate (the part before the HTTP response),
      // sampled in a phase of its own: the sampler's queries (about 6% of a core) stay out of the figures.
      log(`API: ${count / 4} more PATCHes at ${slowRate}/s, sampling pg_stat_activity (not measured)`);
      const sampler = samplePgActivity(stack.db.url, stack.db.name);
      await measure(slowRate, count / 4);
      const slowActivity = await sampler.stop();
      log(`backends per sample at ${slowRate}/s: ${JSON.stringify(slowActivity)}`);

      // Baseline: the same payloads published straight to JetStream (as the relay does, awaiting each
      // ack), measured from the publish call to the same kind of subscriber.
      const sample = await rows[0]!.http.json<Record<string, unknown>>("GET", `/v1/breadcrumbs/${rows[0]!.id}`, 200);
      const payload = JSON.stringify({ seq: 1, type: "breadcrumb.updated", id: sample.id, version: 1, breadcrumb: sample });
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: "BENCH", subjects: ["bench.>"] });
      const js = nc.jetstream();
      const pubAt = new Map<string, number>();
      const enc = new TextEncoder();
      const rawListener = await startStreamListener({ natsUrl: stack.nats.url, stream: "BENCH", filter: "bench.>", key: "k" });
      listeners.push(rawListener);
      const seenRaw = rawListener.seen;
      const { headers } = await import("nats");
      // The same two rates as the API's, so each API figure has its floor from this machine, this run.
      // `commit`, when given, runs first and the clock starts when it returns (as the API's side starts
      // at the HTTP response); a commit that fails publishes nothing and fails the suite.
      const direct = async (rate: number, n: number, from: number, commit?: () => Promise<void>) => {
        pubAt.clear();
        let firstError: unknown;
        const p0 = readParts(undefined, undefined, postmaster);
        const run = await openLoop({
          ratePerSecond: rate,
          count: n,
          maxInFlight: ROWS,
          op: async (j) => {
            try {
              await commit?.();
              const i = from + j;
              const h = headers();
              h.set("k", String(i));
              pubAt.set(String(i), clockMs());
              await js.publish(`bench.default.updated.x`, enc.encode(payload.replace('"seq":1', `"seq":${i}`)), { headers: h, msgID: `m${i}` });
            } catch (err) {
              firstError ??= err;
              throw err;
            }
          },
        });
        const parts = partsPerEvent(p0, readParts(undefined, undefined, postmaster), pubAt.size, false);
        if (run.errors > 0) throw new Error(`${run.errors} of ${n} failed, the first: ${String(firstError)}`);
        await waitUntil(() => [...pubAt.keys()].every((k) => seenRaw.has(k)), 30_000);
        return { ...latencies(pubAt, rawListener), skipped: run.skipped, parts };
      };
      log(`baseline: ${count} direct JetStream publishes at ${RATE}/s`);
      const b = await direct(RATE, count, 0);
      log(`baseline: ${count / 2} direct JetStream publishes at ${slowRate}/s`);
      const bSlow = await direct(slowRate, count / 2, count);

      // The floor under the 500/s goal: each event's least work on any design, with no API in between.
      // This process commits a PATCH's statement (the API's own, from write-path-sql.ts, on a pool as
      // wide as the API's) and then publishes the event itself, on the same schedule over the same rows.
      // The API is stopped first, so no relay publishes these rows and no HTTP is parsed.
      log(`floor: ${count / 2} commits of the write statement, each then published, at ${slowRate}/s`);
      await stack.api.close();
      const statement = patchStatement(pageContext(7, 2));
      const pool = postgres(stack.db.url, { max: DEFAULT_PG_POOL, onnotice: () => {} });
      drizzle(pool); // gives it the API client's serializers (JSON parameters go as the text they are)
      const commit = async () => {
        const row = free.pop();
        if (!row) throw new Error("no free row");
        try {
          const params = statement.forRow({ id: row.id, version: row.version, owner: row.owner, at: new Date().toISOString() });
          const written = await pool.unsafe(statement.sql, params as postgres.ParameterOrJSON<never>[], { prepare: true });
          if (written.length !== 1) throw new Error(`the write of ${row.id} at version ${row.version} matched no row`);
          row.version++;
        } finally {
          free.push(row);
        }
      };
      let floor: Awaited<ReturnType<typeof direct>>;
      try {
        await direct(slowRate, 500, 2 * count, commit); // warm-up, as the API's side had: connections, statements, JIT
        floor = await direct(slowRate, count / 2, 3 * count, commit);
      } finally {
        await pool.end();
      }

      return {
        suite: "event-latency",
        figures: [
          lowerIsBetter({
            metric: "write->event p50 at 1,000/s offered",
            value: round(percentile(a.out, 50)),
            unit: "ms",
            baseline: { name: "JetStream publish->receive", value: round(percentile(b.out, 50), 3), unit: "ms" },
          }),
          {
            ...lowerIsBetter({
              metric: "write->event p99 at 1,000/s offered",
              value: round(percentile(a.out, 99)),
              unit: "ms",
              baseline: { name: "JetStream publish->receive", value: round(percentile(b.out, 99), 3), unit: "ms" },
            }),
            goal: "<= 25 ms",
            met: percentile(a.out, 99) <= 25,
          },
          lowerIsBetter({
            metric: `write->event p50 at ${slowRate}/s`,
            value: round(percentile(slow.out, 50)),
            unit: "ms",
            baseline: { name: "JetStream publish->receive", value: round(percentile(bSlow.out, 50), 3), unit: "ms" },
          }),
          {
            ...lowerIsBetter({
              metric: `write->event p99 at ${slowRate}/s`,
              value: round(percentile(slow.out, 99)),
              unit: "ms",
              baseline: { name: "JetStream publish->receive", value: round(percentile(bSlow.out, 99), 3), unit: "ms" },
            }),
            goal: "<= 10 ms",
            met: percentile(slow.out, 99) <= 10,
          },
          ...breakdownFigures(slowRate, slow, bSlow, floor),
          // Where the API's path spends the difference, per event at the same rate, beside the floor's.
          ...partFigures(slowRate, slow.parts, floor.parts),
          ...apiDelayFigure("1,000/s offered", a.apiP99),
          ...apiDelayFigure(`${slowRate}/s`, slow.apiP99),
          ...[
            ["1,000/s offered", a.handed],
            [`${slowRate}/s`, slow.handed],
          ].map(([rate, share]) => ({
            metric: `events published from memory at ${rate} (handed over by their write, no outbox read)`,
            value: round(100 * Number(share), 1),
            unit: "%",
            note: "crumbs_outbox_published_from_memory_total over the phase's published events",
          })),
          {
            metric: "writes/s achieved (offered 1,000)",
            value: round(achieved, 0),
            unit: "/s",
            // The load the p99 above was measured under: at least 95% of the offered rate got written.
            goal: ">= 950 (95% of offered)",
            met: achieved >= 0.95 * RATE,
          },
        ],
        params: { offered_per_s: RATE, count, rows: ROWS, owners: OWNERS, written: a.written, failed, failed_by_status: failedBy, skipped: a.skipped, early: a.early, missing: a.missing, slow: { rate: slowRate, achieved: slow.achieved, early: slow.early, missing: slow.missing, activity: slowActivity }, baseline_missing: b.missing + bSlow.missing, floor: { published: floor.out.length, skipped: floor.skipped, missing: floor.missing, p50: percentile(floor.out, 50), to_stored_p99: percentile(floor.toStored, 99), delivered_p99: percentile(floor.delivered, 99) } },
      };
    } finally {
      for (const l of listeners) await l.stop();
      for (const c of clients) c.close();
      await admin.end();
      await nc.close();
      await stack.close();
    }
  },
};
