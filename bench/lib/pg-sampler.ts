import postgres from "postgres";

/**
 * Samples pg_stat_activity of one database every `everyMs` and counts what the backends are doing
 * (state, wait event, statement). This is the evidence for where a write spends its time when
 * pg_stat_statements is not preloaded on the shared server.
 */
export function samplePgActivity(databaseUrl: string, databaseName: string, everyMs = 20) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const rows = await sql<{ k: string }[]>`
        select coalesce(state, '?') || ' | ' || coalesce(wait_event_type || ':' || wait_event, 'cpu') || ' | ' ||
               regexp_replace(left(query, 40), '[[:space:]]+', ' ', 'g') as k
        from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`;
      samples++;
      for (const { k } of rows) counts.set(k, (counts.get(k) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    /** Mean number of backends per sample in each (state | wait | statement), busiest first. */
    async stop(): Promise<Record<string, number>> {
      stopped = true;
      await loop;
      await sql.end();
      const out: Record<string, number> = {};
      for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 12)) out[k] = Math.round((v / samples) * 100) / 100;
      return out;
    },
  };
}
