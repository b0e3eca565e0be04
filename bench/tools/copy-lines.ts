/**
 * Could Postgres hand the API a replay's NDJSON bytes directly? `COPY (SELECT event_json ...) TO
 * STDOUT` in CSV format with a quote and a delimiter JSON text never holds raw (\x01, \x02) writes
 * each row as its text and a newline, so the API would pass bytes on without the driver turning
 * each DataRow into a row. This tool reads an owner's 100,000 history rows of ~1.3 KB (the replay
 * suite's rows) in alternating rounds:
 *
 *   cursor      the API's streamed read as rows (EventSteps without copyOut, as for an answer with a
 *               selector: one statement per step of up to 1,000 rows and a third of
 *               CRUMBS_PAGE_MAX_BYTES, the next step read ahead, each step's lines joined)
 *   api-copy    the API's streamed read without a selector: EventSteps with the database's copyOut
 *   copy-steps  one COPY per step, cut by the same rule (a running sum of octet_length in SQL),
 *               the next step's `after` read from the head of the step's last line
 *   copy-one    one COPY for all the rows (no byte bound: the upper bound of what COPY can save)
 *
 * and gives for each the wall time, this process's CPU (process.cpuUsage), the CPU of the
 * database's backends (/proc/<pid>/stat, so the machine's other load changes it little) and the
 * bytes, and checks every way's bytes are identical, also on rows whose text holds backslashes,
 * quotes, escapes and multi-byte characters, and on rows without kept text (built on the fly).
 *
 *   cd bench && node --import tsx tools/copy-lines.ts      (ROUNDS=5, ROWS=100000 to change)
 *
 * Then (CANCEL_PROBE=0 to skip) what stops a COPY whose client went away (cancelProbe).
 *
 * Needs Postgres on the machine it runs on (it reads the backends' /proc entries).
 */
import postgres from "postgres";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createTestDatabase } from "@crumbs/testkit";
import { migrate, openDatabase } from "@crumbs/api";
import { EVENTS_PAGE_MAX_EVENTS } from "@crumbs/schemas";
import { median } from "../stats.ts";
import { fillHistory } from "../suites/replay.ts";
// The API's streamed read, as is.
import { DEFAULT_PAGE_MAX_BYTES, EventSteps, eventJsonOf } from "@crumbs/api/testing";

const ROWS = Number(process.env.ROWS ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TRICKY = 400;
const STEP_BYTES = Math.floor(DEFAULT_PAGE_MAX_BYTES / 3);
const COPY_FORMAT = `WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`;

const tdb = await createTestDatabase("crumbs_copy");
const database = await openDatabase({ databaseUrl: tdb.url, maxConnections: 4 });
const sql = postgres(tdb.url, { max: 1, onnotice: () => {} });
// COPY takes no bind parameters: owner and bounds go into the text as literals.
const copier = postgres(tdb.url, { max: 1, onnotice: () => {} });

/** Rows whose JSON text is hard to pass through CSV: every escape jsonb writes, and raw multi-byte UTF-8. */
async function fillTricky(first: number) {
  await sql`
    INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, breadcrumb, at, event_json)
    SELECT r.*, CASE WHEN r.seq % 2 = 0 THEN crumbs_event_json(r.seq, r.event, r.breadcrumb_id, r.owner, r.schema_name, r.version, r.at, NULL, r.breadcrumb) END
    FROM (
      SELECT (${first}::int + g)::bigint AS seq, gen_random_uuid() AS breadcrumb_id, 'tricky' AS owner, 1 AS version, 'created' AS event,
             'chat.message.v1' AS schema_name, ARRAY['t"ag\\', 'é'] AS tags,
             jsonb_build_object('title', E'quote " back\\\\slash \\\\u0041 ' || g, 'tags', jsonb_build_array(E't"ag\\\\', 'é'),
               'context', jsonb_build_object(E'k\\x01e"y', E'nl\\n cr\\r tab\\t ctl\\x01\\x02\\x1f del\\x7f',
                 'utf8', 'é ü 日本語 🎉 ' || chr(8232) || chr(8233) || ' ' || g, 'sep', E'\\x01,\\x02;\\x01\\x01',
                 'csv', E'"a","b"\\n"c"', 'empty', '', 'nul', 'null')) AS breadcrumb,
             timestamptz '2026-01-01' + g * interval '1 ms' AS at
      FROM generate_series(1, ${TRICKY}::int) g
    ) r`;
  await sql`SELECT setval('history_seq', ${first + TRICKY})`;
}

const TICK_MS = 10; // /proc/<pid>/stat counts utime and stime in clock ticks of 10 ms (CLK_TCK 100)
/** CPU of every backend of this database, in ms, by pid (the pool's connections and the copier's). */
async function backendsCpu(): Promise<Map<number, number>> {
  const pids = await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`;
  const out = new Map<number, number>();
  for (const { pid } of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      out.set(pid, (Number(f[11]) + Number(f[12])) * TICK_MS);
    } catch {
      // gone since pg_stat_activity listed it
    }
  }
  return out;
}

type Way = (owner: string, limit: number) => Promise<Buffer[]>;

/** The API's streamed read: with the database's copyOut (an answer without a selector), or without it (rows). */
const stepsWay = (db: Pick<typeof database, "db" | "copyOut">): Way => async (owner, limit) => {
  const steps = new EventSteps(db, owner, { limit, pageMaxBytes: DEFAULT_PAGE_MAX_BYTES });
  const out: Buffer[] = [];
  for (let lines = await steps.next(); lines; lines = await steps.next()) out.push(lines);
  return out;
};
const cursorWay = stepsWay({ db: database.db });

/** The chunks of one COPY, as postgres-js hands them over (one per CopyData message: a row). */
async function copyOut(text: string): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const c of await copier.unsafe(text).readable()) chunks.push(c as Buffer);
  return chunks;
}

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** A step's COPY: up to `rows` rows after `after` while their text stays within `bytes` (the first row whatever its size). */
const stepCopy = (owner: string, after: number, rows: number, bytes: number) => `
  COPY (SELECT json FROM (
    SELECT json, row_number() OVER w AS rn, sum(octet_length(json)) OVER w AS upto FROM (
      SELECT seq, ${eventJsonOf()} AS json FROM breadcrumb_history
      WHERE owner = ${lit(owner)} AND seq > ${after} ORDER BY seq LIMIT ${rows}
    ) c WINDOW w AS (ORDER BY seq ROWS UNBOUNDED PRECEDING)
  ) s WHERE rn = 1 OR upto <= ${bytes} ORDER BY rn) TO STDOUT ${COPY_FORMAT}`;

const HEAD = Buffer.from('{"seq":');
/** The seq of a chunk's last line: the event text starts `{"seq":N,` (crumbs_event_json). */
function lastSeq(chunks: Buffer[]): number {
  const tail = chunks.length > 1 ? Buffer.concat(chunks.slice(-2)) : chunks[0]!;
  const at = tail.lastIndexOf(HEAD);
  if (at < 0) throw new Error("no event head in the step's last chunks");
  return Number(tail.subarray(at + HEAD.length, tail.indexOf(0x2c, at)).toString("latin1"));
}

const copyStepsWay: Way = async (owner, limit) => {
  const out: Buffer[] = [];
  let after = 0;
  for (let left = limit; left > 0; ) {
    const chunks = await copyOut(stepCopy(owner, after, Math.min(EVENTS_PAGE_MAX_EVENTS, left), STEP_BYTES));
    if (chunks.length === 0) break;
    const n = countLines(chunks);
    out.push(...chunks);
    left -= n;
    after = lastSeq(chunks);
  }
  return out;
};

const oneSelect = (owner: string, limit: number) => `SELECT ${eventJsonOf()} FROM breadcrumb_history WHERE owner = ${lit(owner)} ORDER BY seq LIMIT ${limit}`;
const copyOneWay: Way = async (owner, limit) => copyOut(`COPY (${oneSelect(owner, limit)}) TO STDOUT ${COPY_FORMAT}`);

/** The plan's node types: a parallel plan's workers come and go within a read, so their CPU is not in the backends' figure. */
async function planNodes(select: string): Promise<string> {
  const [row] = await sql.unsafe<{ "QUERY PLAN": unknown }[]>(`EXPLAIN (FORMAT JSON) ${select}`);
  return [...JSON.stringify(row!["QUERY PLAN"]).matchAll(/"Node Type":"([^"]+)"/g)].map((m) => m[1]).join(" > ");
}

function countLines(chunks: Buffer[]): number {
  let n = 0;
  for (const c of chunks) for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) n++;
  return n;
}

const ways: [string, Way][] = [
  ["cursor", cursorWay],
  ["api-copy", stepsWay(database)],
  ["copy-steps", copyStepsWay],
  ["copy-one", copyOneWay],
];

interface Figures {
  wallMs: number;
  cpuMs: number;
  pgMs: number;
  bytes: number;
  chunks: number;
  lines: number;
  sha: string;
}

async function measure(way: Way, owner: string, limit: number): Promise<Figures> {
  const pg0 = await backendsCpu();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const chunks = await way(owner, limit);
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const pg1 = await backendsCpu();
  let pgMs = 0;
  for (const [pid, ms] of pg1) pgMs += ms - (pg0.get(pid) ?? 0);
  const hash = createHash("sha256");
  let bytes = 0;
  for (const b of chunks) {
    hash.update(b);
    bytes += b.length;
  }
  return { wallMs, cpuMs: (c.user + c.system) / 1000, pgMs, bytes, chunks: chunks.length, lines: countLines(chunks), sha: hash.digest("hex").slice(0, 16) };
}

/**
 * What a client that goes away does to a COPY: (1) postgres-js's own cancel() while the rows are
 * still read, (2) pg_cancel_backend from another connection while they are, (3) the readable
 * destroyed without reading on (the backend's state after 500 ms, then pg_cancel_backend, then
 * it is terminated so the tool can end).
 */
async function cancelProbe(owner: string, limit: number) {
  const text = `COPY (${oneSelect(owner, limit)}) TO STDOUT ${COPY_FORMAT}`;
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const state = async (pid: number) => (await sql<{ s: string }[]>`select state || '/' || coalesce(wait_event, '-') as s from pg_stat_activity where pid = ${pid}`)[0]?.s ?? "gone";
  // A client of its own: after the last case its connection is stuck in the COPY for good.
  const pc = postgres(tdb.url, { max: 1, onnotice: () => {} });
  const [{ pid } = { pid: 0 }] = await pc<{ pid: number }[]>`select pg_backend_pid() as pid`;
  for (const how of ["postgres-js cancel()", "pg_cancel_backend"] as const) {
    const q = pc.unsafe(text);
    let read = 0;
    let after = -1;
    let outcome = "ran to its end";
    try {
      for await (const c of await q.readable()) {
        read += (c as Buffer).length;
        if (after >= 0) after += (c as Buffer).length;
        else if (read > 1e6) {
          after = 0;
          if (how === "pg_cancel_backend") await sql`select pg_cancel_backend(${pid})`;
          else q.cancel();
        }
      }
    } catch (e) {
      outcome = `failed: ${(e as Error).message}`;
    }
    const next = await pc`select 1 as one`.then(() => "the connection answers the next query", (e: Error) => `next query failed: ${e.message}`);
    console.log(`cancel probe, ${how} after 1 MB: the COPY ${outcome}, ${after} bytes read after the cancel; ${next}`);
  }
  const q = pc.unsafe(text);
  for await (const c of await q.readable()) {
    void c;
    break; // destroys the readable
  }
  await wait(500);
  const left = await state(pid);
  await sql`select pg_cancel_backend(${pid})`;
  await wait(500);
  console.log(`cancel probe, readable destroyed: backend ${left} after 500 ms, ${await state(pid)} 500 ms after pg_cancel_backend`);
  await sql`select pg_terminate_backend(${pid})`;
  void pc.end({ timeout: 0 }).catch(() => {}); // not awaited: it waits on the stuck COPY
}

try {
  await migrate(database);
  console.log(`filling ${ROWS} history rows and ${TRICKY} hard ones`);
  await fillHistory(sql, ROWS);
  await fillTricky(ROWS);
  await sql`VACUUM ANALYZE breadcrumb_history`;

  console.log(`plan of copy-one: ${await planNodes(oneSelect("default", ROWS))}`);
  console.log(`plan of a copy step: ${await planNodes(stepCopy("default", 0, EVENTS_PAGE_MAX_EVENTS, STEP_BYTES).replace(/^\s*COPY \(|\) TO STDOUT.*$/gs, ""))}`);
  // Identity: every way's bytes against the cursor's, on the hard rows (half without kept text) and on all rows.
  for (const owner of ["tricky", "default"]) {
    const limit = owner === "tricky" ? TRICKY : ROWS;
    const ref = Buffer.concat(await cursorWay(owner, limit));
    if (countLines([ref]) !== limit) throw new Error(`cursor read ${countLines([ref])} lines of ${owner}, not ${limit}`);
    for (const [name, way] of ways.slice(1)) {
      const got = Buffer.concat(await way(owner, limit));
      const same = got.equals(ref);
      console.log(`${owner}: ${name} ${same ? "byte-identical to" : "DIFFERS from"} cursor (${got.length} and ${ref.length} bytes)`);
      if (!same) {
        let i = 0;
        while (i < got.length && got[i] === ref[i]) i++;
        throw new Error(`first difference at byte ${i}: ${JSON.stringify(got.subarray(i - 40, i + 40).toString())} vs ${JSON.stringify(ref.subarray(i - 40, i + 40).toString())}`);
      }
    }
    if (owner === "tricky") console.log(`  a hard line: ${ref.subarray(0, ref.indexOf(10)).toString()}`);
  }

  const all = new Map<string, Figures[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, way] of round % 2 ? ways : [...ways].reverse()) {
      const f = await measure(way, "default", ROWS);
      all.set(name, [...(all.get(name) ?? []), f]);
      console.log(
        `round ${round} ${name}: wall ${f.wallMs.toFixed(0)} ms, node CPU ${f.cpuMs.toFixed(0)} ms, backends CPU ${f.pgMs.toFixed(0)} ms, ` +
          `${f.bytes} B in ${f.chunks} chunks, ${f.lines} lines, sha256 ${f.sha}`,
      );
    }
  }
  console.log(`\nmedians over ${ROUNDS} rounds, per ${ROWS} events:`);
  console.log("| way | wall ms | node CPU ms | backends CPU ms | node+backends ms | MB | chunks |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const [name, fs] of all) {
    const m = (k: keyof Figures) => median(fs.map((f) => f[k] as number));
    const shas = new Set(fs.map((f) => f.sha));
    console.log(
      `| ${name} | ${m("wallMs").toFixed(0)} | ${m("cpuMs").toFixed(0)} | ${m("pgMs").toFixed(0)} | ${(m("cpuMs") + m("pgMs")).toFixed(0)} | ` +
        `${(m("bytes") / 1e6).toFixed(1)} | ${m("chunks")} |${shas.size === 1 ? "" : " (sha differs between rounds!)"}`,
    );
  }
  const shas = new Set([...all.values()].flat().map((f) => f.sha));
  if (process.env.CANCEL_PROBE !== "0") await cancelProbe("default", ROWS);
  console.log(shas.size <= 1 ? `every round of every way: the same bytes (sha256 ${[...shas][0]})` : `BYTES DIFFER: ${[...shas].join(", ")}`);
} finally {
  await copier.end();
  await sql.end();
  await database.close();
  await tdb.drop();
}
// The cancel probe's client keeps its stuck socket (postgres-js does not close it on end): without this the tool never exits.
process.exit(process.exitCode ?? 0);
