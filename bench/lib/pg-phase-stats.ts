import type postgres from "postgres";

/**
 * What a write phase did to the server besides its rows: WAL (records, full-page images, bytes,
 * syncs), checkpoints, breadcrumbs' (or the floor's rows') updates and how many were HOT, dead versions, autovacuums,
 * the tables' sizes and the GIN indexes' pending pages. write-path logs it per phase, so a round
 * that runs slower than the others can be traced to what the server was doing in it. WAL and
 * checkpoints are the server's, every database's: other work on a shared server adds to them. A
 * backend reports its row counts up to a second late, so the counts are the phase's give or take.
 */
interface Snapshot {
  walRecords: number;
  walFpi: number;
  walBytes: number;
  walSync: number;
  checkpoints: number;
  upd: number;
  hotUpd: number;
  dead: number;
  autovacuums: number;
  sizesKb: Record<string, number>;
  ginPending: Record<string, number>;
}

const GIN_INDEXES = ["breadcrumbs_tags_gin", "breadcrumbs_title_trgm", "breadcrumbs_context_gin"];

async function snapshot(sql: postgres.Sql, gin: boolean): Promise<Snapshot> {
  const [w] = await sql<{ r: string; f: string; b: string; s: string; c: string }[]>`
    select w.wal_records::text as r, w.wal_fpi::text as f, w.wal_bytes::text as b, w.wal_sync::text as s,
           (g.checkpoints_timed + g.checkpoints_req)::text as c
    from pg_stat_wal w, pg_stat_bgwriter g`;
  const [t] = await sql<{ u: string; h: string; d: string; a: string }[]>`
    select coalesce(sum(n_tup_upd) filter (where relname in ('breadcrumbs', 'floor_rows')), 0)::text as u,
           coalesce(sum(n_tup_hot_upd) filter (where relname in ('breadcrumbs', 'floor_rows')), 0)::text as h,
           coalesce(sum(n_dead_tup) filter (where relname in ('breadcrumbs', 'floor_rows')), 0)::text as d,
           coalesce(sum(autovacuum_count), 0)::text as a
    from pg_stat_user_tables`;
  const sizes = await sql<{ n: string; kb: number }[]>`
    select relname as n, (pg_total_relation_size(oid) / 1024)::int as kb from pg_class
    where relname in ('breadcrumbs', 'breadcrumb_history', 'outbox') and relkind = 'r'`;
  const ginPending: Record<string, number> = {};
  if (gin) {
    for (const name of GIN_INDEXES) {
      const [p] = await sql<{ p: number }[]>`select pending_pages as p from pgstatginindex(${name}::regclass)`;
      ginPending[name.replace("breadcrumbs_", "")] = p?.p ?? 0;
    }
  }
  return {
    walRecords: Number(w!.r),
    walFpi: Number(w!.f),
    walBytes: Number(w!.b),
    walSync: Number(w!.s),
    checkpoints: Number(w!.c),
    upd: Number(t!.u),
    hotUpd: Number(t!.h),
    dead: Number(t!.d),
    autovacuums: Number(t!.a),
    sizesKb: Object.fromEntries(sizes.map((s) => [s.n, s.kb])),
    ginPending,
  };
}

/** Call before a phase, then `end()` after it: a one-line summary of what the phase did to the server. */
export async function startPhaseStats(sql: postgres.Sql) {
  // pgstatginindex needs pgstattuple; without it the pending pages are left out.
  const gin = await sql`create extension if not exists pgstattuple`.then(
    () => true,
    () => false,
  );
  const a = await snapshot(sql, gin);
  return {
    async end(): Promise<string> {
      const b = await snapshot(sql, gin);
      const upd = b.upd - a.upd;
      const per = (n: number) => (upd > 0 ? Math.round(n / upd) : 0);
      return [
        `updates ${upd} (hot ${b.hotUpd - a.hotUpd})`,
        `WAL/update ${per(b.walBytes - a.walBytes)} B, fpi/update ${(upd > 0 ? (b.walFpi - a.walFpi) / upd : 0).toFixed(2)}`,
        `wal syncs ${b.walSync - a.walSync}`,
        `checkpoints ${b.checkpoints - a.checkpoints}`,
        `dead ${a.dead}->${b.dead}`,
        `autovacuums ${b.autovacuums - a.autovacuums}`,
        `gin pending ${JSON.stringify(a.ginPending)}->${JSON.stringify(b.ginPending)}`,
        `sizes kB ${JSON.stringify(b.sizesKb)}`,
      ].join("; ");
    },
  };
}
