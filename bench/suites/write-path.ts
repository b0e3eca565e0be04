import postgres from "postgres";
import { DEFAULT_PG_POOL } from "@crumbs/api/testing";
import { SUBJECT_PREFIX } from "@crumbs/schemas";
import type { Suite } from "../types.ts";
import { median, round } from "../stats.ts";
import { higherIsBetter, lowerIsBetter } from "../lib/figures.ts";
import { closedLoop, type LoadResult } from "../lib/load.ts";
import { pageContext, pageContextPatchBody } from "../lib/page-context.ts";
import { pgbench, type PgbenchResult } from "../lib/pgbench.ts";
import { HttpClient } from "../lib/http.ts";
import { createPageContexts, type Row } from "../lib/seed-rows.ts";
import { startStack } from "../lib/stack.ts";
import { waitForOutboxDrained } from "../lib/outbox.ts";
import { samplePgActivity } from "../lib/pg-sampler.ts";
import { startPhaseStats } from "../lib/pg-phase-stats.ts";
import { localPostmaster, startPhaseCpu, type PhaseCpu } from "../lib/cpu-account.ts";
import { patchStatementForPgbench } from "./write-path-sql.ts";
import { createFloorTables, floorScript, floorVars } from "./write-path-floor.ts";

const ROWS = 1_000;
const CLIENTS = 16;

/**
 * What one PATCH sends: the row's single autocommit statement, built by the API's own code
 * (write-path-sql.ts). Client c owns the rows n = c + 16k, like the API's clients, so neither
 * side ever meets a version conflict. pgbench learns the row's id and version, and the time the
 * API would take from its clock, with one indexed read before the statement.
 */
function pgbenchScript(statement: string): string {
  return String.raw`
\set n :client_id + 16 * random(0, 62)
\if :n >= ${ROWS}
\set n :n - 16
\endif
SELECT r.id AS bid, b.version AS bver, b.owner AS bowner, '${SUBJECT_PREFIX}.' || b.owner || '.updated.' AS bsubject, to_jsonb(clock_timestamp()) #>> '{}' AS bat FROM bench_rows r JOIN breadcrumbs b ON b.id = r.id WHERE r.n = :n \gset
${statement}
`;
}

/** Rounds of API then pgbench: the machine's speed drifts over minutes, and alternating lets both sides meet the same drift. */
const ROUNDS = 3;

export const writePath: Suite = {
  name: "write-path",
  description: "PATCH with If-Match on 1,000 living breadcrumbs, 16 clients each its own owner, beside pgbench running the same SQL",
  async run({ quick, log }) {
    const rounds = quick ? 1 : ROUNDS;
    const seconds = quick ? 5 : 10;
    // Capacity against pgbench, which has no limiter: the per-key rate limit (50/s by default) would
    // cap 16 keys at about 960 writes/s and answer the rest 429. hostile-neighbour measures the limiter.
    const stack = await startStack({ env: { CRUMBS_RATE_LIMIT: "off" } });
    const sql = postgres(stack.db.url, { max: 1, onnotice: () => {} });
    const clients: HttpClient[] = [];
    try {
      // Client c is owner bench<c> with a key of its own, and owns the rows n = c + 16k.
      log(`creating ${CLIENTS} owners and ${ROWS} page contexts`);
      for (let c = 0; c < CLIENTS; c++) {
        const key = await stack.http.json<{ token: string }>("POST", "/v1/keys", 201, {
          body: { owner: `bench${c}`, scopes: ["read", "write"] },
        });
        clients.push(new HttpClient(stack.api.url, key.token, 4));
      }
      const owned: Row[][] = await Promise.all(
        clients.map((http, c) => createPageContexts(http, Math.ceil((ROWS - c) / CLIENTS), 2, (k) => c + CLIENTS * k)),
      );
      const rows = owned.flat();

      let conflicts = 0;
      let lastBody = "";
      const patch = async (w: number) => {
        const mine = owned[w]!;
        const row = mine[Math.floor(Math.random() * mine.length)]!;
        const res = await clients[w]!.request("PATCH", `/v1/breadcrumbs/${row.id}`, {
          body: pageContextPatchBody(row.n, row.version + 1),
          headers: { "if-match": `"${row.version}"` },
        });
        if (res.status === 412) conflicts++;
        if (res.status !== 200) return false;
        row.version++;
        lastBody = res.body;
        return true;
      };
      // Warm-up: JIT, pool, caches. After 3 s the API's first round was its slowest in 8 of 9 runs
      // (pgbench's in 4 of 9): V8 was still optimising. After 12 s it is in line with the later rounds.
      await closedLoop({ workers: CLIENTS, durationMs: quick ? 1_000 : 12_000, op: patch });
      if (!lastBody) throw new Error("no PATCH succeeded");

      // pgbench needs a way from its client's row number to the row; one indexed read outside the transaction.
      await sql`CREATE TABLE bench_rows (n int PRIMARY KEY, id uuid NOT NULL)`;
      await sql`INSERT INTO bench_rows ${sql(rows.map((r) => ({ n: r.n, id: r.id })))}`;
      const statement = patchStatementForPgbench(pageContext(7, 2));
      const script = pgbenchScript(statement.sql);
      await createFloorTables(sql);
      const floor = { script: floorScript(ROWS, CLIENTS), vars: floorVars(lastBody) };

      const apiRounds: LoadResult[] = [];
      const pgRounds: PgbenchResult[] = [];
      const floorRounds: PgbenchResult[] = [];
      const apiCpu: PhaseCpu[] = [];
      const pgCpu: PhaseCpu[] = [];
      const postmaster = await localPostmaster(sql);
      let apiActivity: Record<string, number> = {};
      let pgActivity: Record<string, number> = {};
      for (let i = 1; i <= rounds; i++) {
        // Each phase starts with the relay caught up and the tables vacuumed, whoever wrote last.
        await waitForOutboxDrained(sql, 60_000);
        await sql`VACUUM ANALYZE`;
        // pgbench moved versions on: the API's clients learn them again (If-Match).
        const versions = new Map((await sql<{ id: string; version: number }[]>`select id::text, version from breadcrumbs`).map((r) => [r.id, r.version]));
        for (const r of rows) r.version = versions.get(r.id) ?? r.version;

        log(`round ${i}/${rounds}: API, ${seconds} s of PATCH with ${CLIENTS} clients`);
        const apiSampler = i === 1 ? samplePgActivity(stack.db.url, stack.db.name) : undefined;
        const apiStats = await startPhaseStats(sql);
        const apiPhase = await startPhaseCpu(sql, stack.api.pid, postmaster);
        const api = await closedLoop({ workers: CLIENTS, durationMs: seconds * 1000, op: patch });
        apiCpu.push(await apiPhase.end());
        const cpu = apiCpu[i - 1]!;
        const perPatch = (ms: number | undefined) => (ms === undefined ? "-" : round(ms / Math.max(1, api.ops + api.errors), 3));
        log(
          `round ${i}/${rounds}: API phase: API ${perPatch(cpu.apiMs)} ms and Postgres ${perPatch(cpu.postgresMs)} ms of CPU per PATCH, ` +
            `machine ${round(100 * cpu.idle, 1)}% idle; ${await apiStats.end()}`,
        );
        if (apiSampler) apiActivity = await apiSampler.stop();
        if (api.firstError) log(`first error: ${api.firstError}`);
        apiRounds.push(api);

        await waitForOutboxDrained(sql, 60_000);
        await sql`VACUUM ANALYZE`;
        log(`round ${i}/${rounds}: pgbench, ${seconds} s of the same statement with ${CLIENTS} clients`);
        const pgSampler = i === 1 ? samplePgActivity(stack.db.url, stack.db.name) : undefined;
        const pgStats = await startPhaseStats(sql);
        const pgPhase = await startPhaseCpu(sql, stack.api.pid, postmaster);
        const pg = await pgbench({ databaseUrl: stack.db.url, script, clients: CLIENTS, threads: 2, seconds, vars: statement.vars });
        pgCpu.push(await pgPhase.end());
        log(`round ${i}/${rounds}: pgbench phase: ${await pgStats.end()}`);
        if (pgSampler) pgActivity = await pgSampler.stop();
        if (pg.failed > 0 || !(pg.tps > 0)) throw new Error(`pgbench failed:\n${pg.raw}`);
        pgRounds.push(pg);

        await sql`VACUUM ANALYZE`;
        log(`round ${i}/${rounds}: pgbench, ${seconds} s of the simple durable transaction with ${CLIENTS} clients`);
        const floorStats = await startPhaseStats(sql);
        const simple = await pgbench({ databaseUrl: stack.db.url, script: floor.script, clients: CLIENTS, threads: 2, seconds, vars: floor.vars });
        log(`round ${i}/${rounds}: simple transaction phase: ${await floorStats.end()}`);
        if (simple.failed > 0 || !(simple.tps > 0)) throw new Error(`pgbench (simple transaction) failed:\n${simple.raw}`);
        floorRounds.push(simple);
        log(
          `round ${i}/${rounds}: ${round(api.perSecond, 0)} PATCH/s, pgbench ${round(pg.tps, 0)} tps: ${round(api.perSecond / pg.tps, 3)}x; ` +
            `simple transaction ${round(simple.tps, 0)} tps: ${round(api.perSecond / simple.tps, 3)}x`,
        );
      }
      log(`backends per sample during the first API round: ${JSON.stringify(apiActivity)}`);
      log(`backends per sample during the first pgbench round: ${JSON.stringify(pgActivity)}`);
      const apiOps = apiRounds.reduce((n, r) => n + r.ops + r.errors, 0);
      const pgOps = pgRounds.reduce((n, r) => n + r.transactions, 0);
      const perOp = (phases: PhaseCpu[], key: "apiMs" | "apiMainMs" | "clientMs" | "postgresMs" | "walSyncs", ops: number) =>
        phases.every((p) => p[key] !== undefined) ? phases.reduce((n, p) => n + p[key]!, 0) / Math.max(1, ops) : undefined;
      const pgPerPatch = perOp(apiCpu, "postgresMs", apiOps);
      const pgPerTx = perOp(pgCpu, "postgresMs", pgOps);
      const walPerPatch = perOp(apiCpu, "walSyncs", apiOps);
      const walPerTx = perOp(pgCpu, "walSyncs", pgOps);
      const idle = (phases: PhaseCpu[]) => round(100 * median(phases.map((p) => p.idle)), 1);
      // The round whose ratio is the median: its two sides ran seconds apart, where the medians of
      // each side could pair a fast API window with a slow pgbench one from another round.
      const byRatio = apiRounds.map((api, i) => ({ api, pg: pgRounds[i]! })).sort((a, b) => a.api.perSecond / a.pg.tps - b.api.perSecond / b.pg.tps);
      const mid = byRatio[Math.floor(byRatio.length / 2)]!;
      const byFloorRatio = apiRounds.map((api, i) => ({ api, floor: floorRounds[i]! })).sort((a, b) => a.api.perSecond / a.floor.tps - b.api.perSecond / b.floor.tps);
      const midFloor = byFloorRatio[Math.floor(byFloorRatio.length / 2)]!;

      return {
        suite: "write-path",
        figures: [
          higherIsBetter({
            metric: "PATCH updates/s",
            value: round(mid.api.perSecond, 0),
            unit: "/s",
            baseline: { name: "pgbench same SQL", value: round(mid.pg.tps, 0), unit: "/s" },
            goal: ">= 0.5x pgbench",
            minRatio: 0.5,
          }),
          // The floor of the same durable work done the simplest way (write-path-floor.ts).
          higherIsBetter({
            metric: "PATCH updates/s against the simple durable transaction",
            value: round(midFloor.api.perSecond, 0),
            unit: "/s",
            baseline: { name: "pgbench: update + history + outbox, primary keys only", value: round(midFloor.floor.tps, 0), unit: "/s" },
            goal: ">= 0.5x the simple transaction",
            minRatio: 0.5,
          }),
          lowerIsBetter({
            metric: "PATCH latency p50",
            value: round(median(apiRounds.map((r) => r.p50))),
            unit: "ms",
            baseline: { name: "pgbench", value: round(median(pgRounds.map((r) => r.p50))), unit: "ms" },
          }),
          lowerIsBetter({
            metric: "PATCH latency p99",
            value: round(median(apiRounds.map((r) => r.p99))),
            unit: "ms",
            baseline: { name: "pgbench", value: round(median(pgRounds.map((r) => r.p99))), unit: "ms" },
          }),
          lowerIsBetter({ metric: "API process CPU per PATCH", value: round(perOp(apiCpu, "apiMs", apiOps)!, 3), unit: "ms" }),
          // Of which the HTTP thread; the rest is the relay thread and V8's helpers (GC, compiler).
          lowerIsBetter({ metric: "API main (HTTP) thread CPU per PATCH", value: round(perOp(apiCpu, "apiMainMs", apiOps)!, 3), unit: "ms" }),
          // The HTTP thread is the one serial step of a PATCH: the share of the phase it spent
          // runnable but not on a CPU (schedstat) is what the machine's other work took from it.
          ...(apiCpu.every((p) => p.apiMainWaitMs !== undefined)
            ? [
                { metric: "API HTTP thread on a CPU (median round)", value: round(100 * median(apiCpu.map((p) => p.apiMainMs / p.wallMs)), 1), unit: "%" },
                { metric: "API HTTP thread waiting for a CPU (median round)", value: round(100 * median(apiCpu.map((p) => p.apiMainWaitMs! / p.wallMs)), 1), unit: "%" },
              ]
            : []),
          // Where the gap in writes/s goes: Postgres's own work per write on each side (pgbench's
          // includes the indexed read it does first), the WAL flushes each write shares, and the
          // CPU time nobody used. Omitted when Postgres is not on this machine.
          ...(pgPerPatch !== undefined && pgPerTx !== undefined
            ? [lowerIsBetter({ metric: "Postgres CPU per write", value: round(pgPerPatch, 3), unit: "ms", baseline: { name: "pgbench, with its read", value: round(pgPerTx, 3), unit: "ms" } })]
            : []),
          // The two load generators share the machine with what they measure: this process's HTTP
          // clients (Node) on one side, pgbench (C) on the other.
          lowerIsBetter({
            metric: "load generator CPU per request",
            value: round(perOp(apiCpu, "clientMs", apiOps)!, 3),
            unit: "ms",
            baseline: { name: "pgbench's own", value: round(perOp(pgCpu, "clientMs", pgOps)!, 3), unit: "ms" },
          }),
          ...(walPerPatch !== undefined && walPerTx !== undefined
            ? [lowerIsBetter({ metric: "WAL flushes per write", value: round(walPerPatch, 3), unit: "", baseline: { name: "pgbench", value: round(walPerTx, 3), unit: "" } })]
            : []),
          { metric: "machine idle (median phase)", value: idle(apiCpu), unit: "%", baseline: { name: "pgbench", value: idle(pgCpu), unit: "%" } },
        ],
        params: {
          rows: ROWS,
          clients: CLIENTS,
          api_pg_pool: Number(process.env.CRUMBS_PG_POOL) || DEFAULT_PG_POOL,
          rounds,
          seconds_per_round: seconds,
          note: "PATCH/s against pgbench: the round with the median ratio; latencies: medians of the rounds; each round runs the API, then pgbench",
          api: { rounds: apiRounds.map(({ perSecond, p50, p99, ops, errors }, i) => ({ perSecond, p50, p99, ops, errors, cpu: apiCpu[i] })), conflicts, activity: apiActivity },
          simple_transaction: { rounds: floorRounds.map(({ tps, transactions, p50, p99 }) => ({ tps, transactions, p50, p99 })) },
          pgbench: { rounds: pgRounds.map(({ tps, transactions, p50, p99 }, i) => ({ tps, transactions, p50, p99, cpu: pgCpu[i] })), activity: pgActivity },
        },
      };
    } finally {
      for (const c of clients) c.close();
      await sql.end();
      await stack.close();
    }
  },
};
