/**
 * What one PATCH's statement costs Postgres, without the noise of a shared machine's clock: one
 * connection runs the statement the API sends (write-path-sql.ts) on 1,000 page contexts, and the
 * figures are the backend's own CPU time per write (/proc/<pid>/stat, so other load on the machine
 * changes them little; with what the writes left in the GIN pending lists merged at the end), its WAL
 * bytes per write (EXPLAIN (ANALYZE, WAL) over 100 writes, which counts this statement's records only)
 * and, with pg_walinspect, the WAL per relation over 200 writes.
 * Variants (`VARIANTS`, JSON: name, SQL to run before and after, text replacements in the statement)
 * alternate round by round in the same database, e.g. to price an index before dropping it:
 *
 *   node --import tsx tools/statement-cost.ts
 *   VARIANTS='[{"name":"main"},{"name":"no-title-index","on":"DROP INDEX breadcrumbs_title_trgm",
 *     "off":"CREATE INDEX breadcrumbs_title_trgm ON breadcrumbs USING gin (title gin_trgm_ops)"}]' node --import tsx tools/statement-cost.ts
 *
 * Needs Postgres on the machine it runs on (it reads the backend's /proc entry) and psql.
 */
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { readFileSync } from "node:fs";
import { migratedDatabase } from "./migrated-database.ts";
import { median } from "../stats.ts";
import { pageContext, pageContextTags } from "../lib/page-context.ts";
import { patchStatement } from "../suites/write-path-sql.ts";

interface Variant {
  name: string;
  on?: string;
  off?: string;
  replace?: [string, string][];
}

const ROWS = 1000;
const OWNERS = 16;
const N = Number(process.env.N ?? 1500);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const variants: Variant[] = JSON.parse(process.env.VARIANTS ?? '[{"name":"as sent"}]') as Variant[];

const db = await migratedDatabase("crumbs_cost");
const sql = postgres(db.url, { max: 1, onnotice: () => {} });
try {
  const rows: { id: string; owner: string; version: number }[] = [];
  for (let n = 0; n < ROWS; n++) {
    const owner = `bench${n % OWNERS}`;
    const [r] = await sql<{ id: string }[]>`
      INSERT INTO breadcrumbs (id, owner, schema_name, title, tags, context, key, version, created_at, updated_at, created_by, updated_by)
      VALUES (gen_random_uuid(), ${owner}, 'browser.page.context.v1', ${`RCRT Documentation ${n}`}, ${pageContextTags(n)},
              ${sql.json(pageContext(n, 1) as never)}, ${`browser.page.context:bench${String(n).padStart(4, "0")}`}, 1, now(), now(), 'k', 'k')
      RETURNING id::text`;
    rows.push({ id: r!.id, owner, version: 1 });
  }
  await sql`CREATE EXTENSION IF NOT EXISTS pg_walinspect`;
  // The API's client as drizzle sets it up: a jsonb parameter is sent as the JSON text it is (postgres-js
  // alone would JSON.stringify the text again, and the row's context would be stored as one JSON string).
  drizzle({ client: sql });
  const statement = patchStatement(pageContext(7, 2));
  const [{ pid } = { pid: 0 }] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const cpuMs = () => {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  };
  let k = 0;
  const write = async (text: string, explain = false) => {
    const r = rows[k++ % ROWS]!;
    const params = statement.forRow({ id: r.id, version: r.version, at: new Date().toISOString(), owner: r.owner });
    const out = await sql.unsafe(explain ? `EXPLAIN (ANALYZE, WAL, FORMAT JSON) ${text}` : text, params as never[], { prepare: !explain });
    r.version++;
    return out as unknown as { "QUERY PLAN": { Plan: { "WAL Bytes": number } }[] }[];
  };
  const lsn = async () => (await sql<{ l: string }[]>`select pg_current_wal_lsn()::text as l`)[0]!.l;
  const figures = new Map<string, { ms: number[]; wal: number[] }>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const v of variants) {
      if (v.on) await sql.unsafe(v.on);
      await sql`VACUUM ANALYZE`;
      const text = (v.replace ?? []).reduce((t, [from, to]) => {
        if (!t.includes(from)) throw new Error(`the statement has no ${from}`);
        return t.replaceAll(from, to);
      }, statement.sql);
      for (let j = 0; j < 50; j++) await write(text);
      const c0 = cpuMs();
      for (let j = 0; j < N; j++) await write(text);
      // The GIN indexes take a write into their pending lists and merge the lists into the trees later
      // (at gin_pending_list_limit, or in VACUUM): merging what is left here charges the writes all their
      // index work, so a variant that merges less often inside the loop does not look cheaper than it is.
      const c1 = cpuMs();
      await sql`select gin_clean_pending_list(c.oid) from pg_index i join pg_class c on c.oid = i.indexrelid
                join pg_am a on a.oid = c.relam where a.amname = 'gin' and i.indrelid = 'breadcrumbs'::regclass`;
      const mergeMs = (cpuMs() - c1) / N;
      const ms = (cpuMs() - c0) / N;
      let wal = 0;
      for (let j = 0; j < 100; j++) wal += (await write(text, true))[0]!["QUERY PLAN"][0]!.Plan["WAL Bytes"] / 100;
      const from = await lsn();
      for (let j = 0; j < 200; j++) await write(text);
      const perRelation = await sql<{ rel: string; rm: string; bytes: string }[]>`
        select coalesce(c.relname, r.rel, '-') as rel, r.resource_manager as rm, (sum(r.record_length) / 200)::int::text as bytes
        from (select resource_manager, record_length, substring(block_ref from 'rel [0-9]+/[0-9]+/([0-9]+)') as rel,
                     substring(block_ref from 'rel [0-9]+/([0-9]+)/') as db
              from pg_get_wal_records_info(${from}::pg_lsn, pg_current_wal_lsn())) r
        left join pg_class c on c.relfilenode::text = r.rel
        where r.db is null or r.db = (select oid::text from pg_database where datname = current_database())
        group by 1, 2 order by sum(r.record_length) desc limit 12`;
      if (v.off) await sql.unsafe(v.off);
      const f = figures.get(v.name) ?? { ms: [], wal: [] };
      f.ms.push(ms);
      f.wal.push(wal);
      figures.set(v.name, f);
      console.log(`round ${round} ${v.name}: ${ms.toFixed(3)} ms of backend CPU (${mergeMs.toFixed(3)} of it merging what was left in the GIN pending lists) and ${wal.toFixed(0)} B of WAL per write`);
      console.log(`  WAL per write by relation: ${perRelation.map((r) => `${r.rel} ${r.bytes}`).join(", ")}`);
    }
  }
  for (const [v, f] of figures) {
    console.log(`${v}: median ${median(f.ms).toFixed(3)} ms of backend CPU, ${median(f.wal).toFixed(0)} B of WAL per write (rounds ${f.ms.map((m) => m.toFixed(3)).join(", ")})`);
  }
} finally {
  await sql.end();
  await db.drop();
}
