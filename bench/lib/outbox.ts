import type { Sql } from "postgres";

/** Waits until the relay has published every committed event, so the next phase starts quiet. */
export async function waitForOutboxDrained(sql: Sql, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await sql<{ n: string }[]>`select count(*)::text as n from outbox`;
    if (row?.n === "0") return;
    if (Date.now() > deadline) throw new Error(`outbox still holds ${row?.n} unpublished rows`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
