/**
 * What combining concurrent PATCHes of distinct owners into ONE statement would save, priced before
 * it is built. The single form is the statement the API sends for the write-path bench's PATCH (a
 * page context with If-Match, captured from the API's own code: write-path-sql.ts). The combined
 * form (the API's combined statement, store/combined-write-statement.ts) does the same writes as one statement over
 * arrays of parameters (`unnest`, one row per write): every effect kept (the row, history row, outbox row, the owner's commit lock and seq,
 * the event's text; schema counts, which a PATCH never changes, are left out), each write's result its own row, a write that misses its
 * version simply absent. Before measuring, the tool checks that both forms give the same rows, and
 * prints how Postgres's generic plan of the combined form finds the rows.
 *
 * Part 1, one connection (noise of a shared machine barely moves it): the backend's CPU per write
 * (/proc/<pid>/stat), WAL bytes and WAL flushes (pg_stat_wal) per write, and this process's CPU
 * per write (postgres-js building and parsing the messages: the API's share of the same work),
 * for the single form and combined statements of 2, 4, 8 and 16 writes, alternating round by round.
 *
 * Part 2, pgbench -M prepared, alternating: the single form with 16 clients, one owner each, against
 * the combined form (a) with 16 / N clients of N owners each, i.e. the same 16 writes in flight the
 * bench's 16 HTTP clients make, and (b) with 16 clients of N owners each (16 x N in flight). Rates
 * count writes, not transactions; Postgres's CPU (the postmaster and its children) per write beside.
 *
 *   node --import tsx tools/write-combining.ts
 *   SIZES=1,4,16 ROUNDS=2 SECONDS=8 N=1200 node --import tsx tools/write-combining.ts
 *   PGBENCH_PART=off node --import tsx tools/write-combining.ts     # part 1 only
 *
 * Needs Postgres on the machine it runs on, psql and pgbench.
 */
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { readFileSync } from "node:fs";
import { migratedDatabase } from "./migrated-database.ts";
import { SUBJECT_PREFIX } from "@crumbs/schemas";
import { median } from "../stats.ts";
import { pageContext, pageContextTags } from "../lib/page-context.ts";
import { pgbench } from "../lib/pgbench.ts";
import { localPostmaster, postgresCpuMs, walSyncs } from "../lib/cpu-account.ts";
import { patchStatement, patchStatementForPgbench } from "../suites/write-path-sql.ts";
import { COMBINED_PATCH, combinedPatchParams } from "@crumbs/api/store";
import { breadcrumbContentCheck } from "@crumbs/api/testing";
import { combinedScript } from "./combined-write-sql.ts";

/** 256 owners, so that 16 pgbench clients of 16 owners each never share one; 4 rows each. */
const OWNERS = 256;
const ROWS = 1024;
const PER_OWNER = ROWS / OWNERS;
const WRITES = Number(process.env.N ?? 1600);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 8);
const SIZES = (process.env.SIZES ?? "1,2,4,8,16").split(",").map(Number);
const PGBENCH = process.env.PGBENCH_PART !== "off";


interface Row {
  n: number;
  id: string;
  owner: string;
  version: number;
}
interface Target {
  id: string;
  owner: string;
  version: number;
  at: string;
}

const ownerName = (o: number) => `bench${o}`;
const db = await migratedDatabase("crumbs_combine");
const sql = postgres(db.url, { max: 1, onnotice: () => {} });
try {
  const rows: Row[] = [];
  for (let n = 0; n < ROWS; n++) {
    const owner = ownerName(n % OWNERS);
    const [r] = await sql<{ id: string }[]>`
      INSERT INTO breadcrumbs (id, owner, schema_name, title, tags, context, key, version, created_at, updated_at, created_by, updated_by)
      VALUES (gen_random_uuid(), ${owner}, 'browser.page.context.v1', ${`RCRT Documentation ${n}`}, ${pageContextTags(n)},
              ${sql.json(pageContext(n, 1) as never)}, ${`browser.page.context:bench${String(n).padStart(4, "0")}`}, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'k', 'k')
      RETURNING id::text`;
    rows.push({ n, id: r!.id, owner, version: 1 });
  }
  await sql`CREATE TABLE bench_rows (n int PRIMARY KEY, id uuid NOT NULL)`;
  await sql`INSERT INTO bench_rows ${sql(rows.map((r) => ({ n: r.n, id: r.id })))}`;

  // The API's client as drizzle sets it up: jsonb and timestamp parameters sent as the text they are.
  drizzle({ client: sql });
  const context = pageContext(7, 2);
  const single = patchStatement(context);
  // The single form's parameters that are the same for every write of the bench's shape.
  const probe = single.forRow({ id: "00000000-0000-4000-8000-000000000001", version: 1, at: "2026-01-01T00:00:00.000Z", owner: "bench0" });
  const contextText = probe.find((p) => typeof p === "string" && p.startsWith('{"url"')) as string;
  const refused = breadcrumbContentCheck.refusing(context);
  const actor = "admin";
  if (!contextText || refused === "all") throw new Error("the captured statement changed shape: update this tool");
  const combinedParams = (ts: Target[]) =>
    combinedPatchParams(ts.map((t) => ({ id: t.id, owner: t.owner, actor, expectedVersion: t.version, at: t.at, context: contextText, refused })));

  type Out = { id: string; version: number; seq: string; subject: string; msg_id: string; payload: string; prev_seq: string | null };
  /** One statement: the single form for one write, else the combined form. */
  const send = async (ts: Target[]) => {
    const out =
      ts.length === 1
        ? await sql.unsafe(single.sql, single.forRow(ts[0]!) as never[], { prepare: true })
        : await sql.unsafe(COMBINED_PATCH, combinedParams(ts) as never[], { prepare: true });
    return out as unknown as Out[];
  };

  // Both forms must do the same: the same rows and events (whose breadcrumb is the body) but for seq (drawn from one sequence).
  {
    const pick = (o: number) => rows.find((r) => r.owner === ownerName(o))!;
    const at = "2026-02-03T04:05:06.789Z";
    const history = async (id: string, version: number) =>
      (await sql`select owner, version, event, schema_name, tags, at, changed, event_json from breadcrumb_history where breadcrumb_id = ${id} and version = ${version}`)[0];
    const outbox = async (id: string, version: number) => (await sql`select subject, msg_id from outbox where msg_id = ${`${id}:${version}:updated`}`)[0];
    const noSeq = (s: string) => s.replace(/"seq":\s*\d+/, '"seq":0');
    // The event's JSON value, keys sorted: the combined form's context is the text the API sent, the
    // single form's is the row's jsonb as text (other spacing and key order, the same value).
    const sorted = (text: string) =>
      JSON.stringify(JSON.parse(text), (_k, v: unknown) =>
        v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v);
    const shot = async (r: Row, o: Out | undefined) => {
      if (!o) throw new Error(`no result row for ${r.id}`);
      const h = await history(r.id, o.version);
      return JSON.stringify({
        version: o.version, subject: o.subject, msg_id: o.msg_id, payload: noSeq(sorted(o.payload)),
        history: { ...h, event_json: noSeq(sorted(String(h?.event_json))) }, outbox: await outbox(r.id, o.version),
      });
    };
    // Owners 0-3 write once alone (creating their head rows), then: 0 and 1 alone, 2 and 3 combined.
    const fresh = [0, 1, 2, 3].map(pick);
    for (const r of fresh) r.version = (await send([{ ...r, at }]))[0]!.version;
    const [a, b, c, d] = fresh as [Row, Row, Row, Row];
    const alone = [await send([{ ...a, at }]), await send([{ ...b, at }])].map((o) => o[0]);
    const together = await send([{ ...c, at }, { ...d, at }, { ...b, version: 999, at }]);
    if (together.length !== 2) throw new Error(`the combined statement answered ${together.length} rows for 2 matching writes of 3`);
    const byId = new Map(together.map((o) => [o.id, o]));
    // What differs between two rows of two owners: the id, the owner, and the row's number in its title, tag and key.
    const strip = (s: string, r: Row) => s.replaceAll(r.id, "ID").replace(/RCRT Documentation \d+/g, "T").replace(/bench\d+/g, "B");
    for (const [one, two] of [[a, c], [b, d]] as [Row, Row][]) {
      const x = strip(await shot(one, alone[one === a ? 0 : 1]), one);
      const y = strip(await shot(two, byId.get(two.id)), two);
      if (x !== y) throw new Error(`the combined statement differs from the single one:\n${x}\n${y}`);
    }
    const seqs = await sql<{ owner: string; last_seq: string; prev_seq: string }[]>`select owner, last_seq::text, prev_seq::text from owner_heads where owner = any(${[c.owner, d.owner]})`;
    for (const o of together) {
      const head = seqs.find((s) => s.owner === (o.id === c.id ? c.owner : d.owner));
      if (head?.last_seq !== o.seq || head.prev_seq !== o.prev_seq) throw new Error("the combined statement's seq is not its owner's head");
    }
    for (const r of fresh) r.version = Number((await sql<{ v: number }[]>`select version as v from breadcrumbs where id = ${r.id}`)[0]!.v);
    console.log("check: the combined statement's rows, events (with the bodies), history and outbox rows equal the single statement's (seq aside)");
  }

  // How the prepared statement finds the rows once Postgres plans it generically (after 5 runs it may):
  // by the primary key per write, or by scanning the table (fine at 1,024 rows, not at 1M).
  {
    await sql.unsafe("SET plan_cache_mode = force_generic_plan");
    await sql.unsafe(`PREPARE combined_plan (uuid[], text[], int[], timestamptz[], text[], text[], text[], text[]) AS ${COMBINED_PATCH}`);
    const plan = await sql.unsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN EXECUTE combined_plan('{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}')`,
    );
    const lines = plan.map((r) => r["QUERY PLAN"]).filter((l) => /Update on breadcrumbs|Join|Nested Loop|Scan on breadcrumbs|Scan using breadcrumbs_pkey|Function Scan/.test(l));
    console.log(`generic plan of the combined statement's row change:\n${lines.slice(0, 6).join("\n")}`);
    await sql.unsafe("DEALLOCATE combined_plan");
    await sql.unsafe("RESET plan_cache_mode");
  }
  const [{ pid } = { pid: 0 }] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const backendMs = () => {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  };
  const selfMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  /** WAL flushes so far: this backend's pending counts are written to pg_stat_wal first (they lag by up to a second). */
  const flushes = async () => {
    await sql`select pg_stat_force_next_flush()`;
    return (await walSyncs(sql)) ?? 0;
  };
  const lsnBytes = async () => Number((await sql<{ b: string }[]>`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as b`)[0]!.b);
  // One statement of `size` writes, of `size` distinct owners (a rotating window over the 256).
  let cursor = 0;
  const batch = async (size: number) => {
    const start = cursor;
    cursor = (cursor + size) % OWNERS;
    const k = Math.floor(Math.random() * PER_OWNER);
    const chosen = Array.from({ length: size }, (_, j) => rows[((start + j) % OWNERS) + OWNERS * k]!);
    const at = new Date().toISOString();
    const out = await send(chosen.map((r) => ({ id: r.id, owner: r.owner, version: r.version, at })));
    if (out.length !== size) throw new Error(`${out.length} of ${size} writes matched`);
    for (const r of chosen) r.version++;
  };

  const figures = new Map<number, { pg: number[]; self: number[]; wal: number[]; flushes: number[] }>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const size of SIZES) {
      await sql`VACUUM ANALYZE`;
      const statements = Math.ceil(WRITES / size);
      for (let j = 0; j < Math.ceil(100 / size); j++) await batch(size);
      const wal0 = await lsnBytes();
      const sync0 = await flushes();
      const c0 = backendMs();
      const s0 = selfMs();
      for (let j = 0; j < statements; j++) await batch(size);
      const s1 = selfMs();
      const c1 = backendMs();
      const sync1 = await flushes();
      const wal1 = await lsnBytes();
      const writes = statements * size;
      const f = figures.get(size) ?? { pg: [], self: [], wal: [], flushes: [] };
      f.pg.push((c1 - c0) / writes);
      f.self.push((s1 - s0) / writes);
      f.wal.push((wal1 - wal0) / writes);
      f.flushes.push((sync1 - sync0) / writes);
      figures.set(size, f);
      console.log(
        `round ${round} size ${size}: backend ${((c1 - c0) / writes).toFixed(3)} ms, postgres-js ${((s1 - s0) / writes).toFixed(3)} ms, ` +
          `WAL ${((wal1 - wal0) / writes).toFixed(0)} B, ${((sync1 - sync0) / writes).toFixed(3)} flushes per write`,
      );
    }
  }
  console.log("\none connection, medians per write:");
  console.log("| writes per statement | backend CPU ms | postgres-js (client) CPU ms | WAL bytes | WAL flushes |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [size, f] of figures) {
    console.log(`| ${size} | ${median(f.pg).toFixed(3)} | ${median(f.self).toFixed(3)} | ${median(f.wal).toFixed(0)} | ${median(f.flushes).toFixed(3)} |`);
  }

  if (PGBENCH) {
    const postmaster = await localPostmaster(sql);
    const forPgbench = patchStatementForPgbench(context);
    const singleScript = String.raw`
\set k random(0, ${PER_OWNER - 1})
SELECT r.id AS bid, b.version AS bver, b.owner AS bowner, '${SUBJECT_PREFIX}.' || b.owner || '.updated.' AS bsubject, to_jsonb(clock_timestamp()) #>> '{}' AS bat FROM bench_rows r JOIN breadcrumbs b ON b.id = r.id WHERE r.n = :client_id + ${OWNERS} * :k \gset
${forPgbench.sql}
`;
    // The per-statement values as the API binds them ($5 actors, $6 contexts, $8 refused schemas).
    const combinedVars = (size: number) => {
      const p = combinedParams(Array.from({ length: size }, (_, i) => ({ id: rows[i]!.id, owner: rows[i]!.owner, version: 1, at: "2026-01-01T00:00:00Z" })));
      return { actors: p[4]!, ctxs: p[5]!, refused: p[7]! };
    };
    const phases: { label: string; size: number; clients: number }[] = [{ label: "single, 16 clients", size: 1, clients: 16 }];
    for (const size of SIZES.filter((s) => s > 1)) {
      phases.push({ label: `combined ${size}, ${16 / size} clients (16 in flight)`, size, clients: 16 / size });
      phases.push({ label: `combined ${size}, 16 clients (${16 * size} in flight)`, size, clients: 16 });
    }
    const rates = new Map<string, { wps: number[]; pgMs: number[]; flushes: number[]; p50: number[] }>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const ph of phases) {
        await sql`VACUUM ANALYZE`;
        const pg0 = postmaster === undefined ? 0 : postgresCpuMs(postmaster);
        const sync0 = (await walSyncs(sql)) ?? 0;
        const r = await pgbench({
          databaseUrl: db.url,
          script: ph.size === 1 ? singleScript : combinedScript(ph.size, OWNERS, PER_OWNER),
          clients: ph.clients,
          threads: Math.min(2, ph.clients),
          seconds: SECONDS,
          vars: ph.size === 1 ? forPgbench.vars : combinedVars(ph.size),
        });
        if (r.failed > 0 || !(r.tps > 0)) throw new Error(`pgbench failed (${ph.label}):\n${r.raw}`);
        const pgMs = postmaster === undefined ? NaN : postgresCpuMs(postmaster) - pg0;
        const writes = r.transactions * ph.size;
        const sync1 = (await walSyncs(sql)) ?? 0;
        const f = rates.get(ph.label) ?? { wps: [], pgMs: [], flushes: [], p50: [] };
        f.wps.push(r.tps * ph.size);
        f.pgMs.push(pgMs / writes);
        f.flushes.push((sync1 - sync0) / writes);
        f.p50.push(r.p50);
        rates.set(ph.label, f);
        console.log(`round ${round} ${ph.label}: ${(r.tps * ph.size).toFixed(0)} writes/s, Postgres ${(pgMs / writes).toFixed(3)} ms CPU and ${((sync1 - sync0) / writes).toFixed(3)} flushes per write, statement p50 ${r.p50.toFixed(2)} ms`);
      }
    }
    console.log("\npgbench -M prepared, medians:");
    console.log("| form | writes/s | Postgres CPU ms per write | WAL flushes per write | statement p50 ms |");
    console.log("| --- | --- | --- | --- | --- |");
    for (const [label, f] of rates) {
      console.log(`| ${label} | ${median(f.wps).toFixed(0)} | ${median(f.pgMs).toFixed(3)} | ${median(f.flushes).toFixed(3)} | ${median(f.p50).toFixed(2)} |`);
    }
  }
} finally {
  await sql.end();
  await db.drop();
}
