import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { NatsServer, PostgresServer, waitFor } from "@crumbs/testkit";
import { STREAM_NAME } from "@crumbs/schemas";
import { connect } from "nats";
import { assembleApi, type ApiStack } from "../src/assemble.ts";
import { loadApiConfig } from "../src/config.ts";
import { rowsOf } from "../src/db/database.ts";
import { silentLogger } from "@crumbs/telemetry";

const TOKEN = "fault-pg-token-0123456789";
const WRITERS = 4;

interface Outcome {
  status: number;
  retryAfter: string | null;
  error?: string;
  phase: "before" | "outage" | "after";
}

/**
 * Postgres crashes (pg_ctl stop -m immediate) and comes back on the same port
 * while writers keep going. Its own cluster: the shared 5432 is never touched.
 *
 * The `postgres` driver 3.4.9 alone fails this: it throws an uncaught
 * TypeError from `nextWrite` when a write is queued on a closed socket, and
 * leaves that connection's `nextWriteTimer` set so its later queries hang
 * (porsager/postgres#1154, #1208; fixes in PRs #1168, #1209). The API's
 * supervisor (src/db/postgres/supervisor.ts) bounds every query, ends the
 * whole client on a connection failure before postgres-js can write its
 * rollback to the dead socket, and opens a fresh client for the next query.
 * Vitest counts any uncaught exception as a failure, so this also checks that
 * the TypeError no longer happens (the process guard is only the backstop).
 */
describe("Postgres restarted during writes", () => {
  let pg: PostgresServer;
  let nats: NatsServer;
  let api: ApiStack;

  beforeAll(async () => {
    [pg, nats] = await Promise.all([PostgresServer.start(), NatsServer.start()]);
    const config = loadApiConfig({
      DATABASE_URL: pg.url,
      NATS_URL: nats.url,
      CRUMBS_TOKEN: TOKEN,
      CRUMBS_RELAY_POLL_MS: "100",
    });
    api = await assembleApi({ config, logger: silentLogger });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await nats?.dispose();
    await pg?.dispose();
  });

  const call = (path: string, init: { method: string; json?: unknown; headers?: Record<string, string> }) =>
    api.app.request(path, {
      method: init.method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...init.headers },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });

  it("answers 503 with Retry-After during the outage, recovers without a restart, leaves no partial rows", async () => {
    let phase: Outcome["phase"] = "before";
    let stop = false;
    const outcomes: Outcome[] = [];
    /** Versions the API acknowledged: each must be in history afterwards. */
    const acked: { id: string; version: number }[] = [];

    async function record(res: Response): Promise<unknown> {
      const body = res.status === 204 ? null : ((await res.json()) as { error?: string });
      outcomes.push({ status: res.status, retryAfter: res.headers.get("retry-after"), error: (body as { error?: string })?.error, phase });
      return body;
    }

    async function writer(w: number) {
      let id: string | undefined;
      let version = 0;
      for (let i = 0; !stop; i++) {
        if (!id) {
          const res = await call("/v1/breadcrumbs", {
            method: "POST",
            json: { schema_name: "test.fault.v1", title: `w${w}`, tags: [`w:${w}`], context: { w, i } },
          });
          const body = (await record(res)) as { id: string; version: number };
          if (res.status === 201) {
            id = body.id;
            version = 1;
            acked.push({ id, version });
          }
        } else {
          const res = await call(`/v1/breadcrumbs/${id}`, {
            method: "PATCH",
            headers: { "if-match": `"${version}"` },
            json: { context: { w, i } },
          });
          const body = (await record(res)) as { version?: number; details?: { current_version: number } };
          if (res.status === 200) {
            version = body.version ?? version;
            acked.push({ id, version });
          } else if (res.status === 412) {
            // A commit whose answer was lost to the crash: the version moved on, as it should.
            version = body.details?.current_version ?? version;
          }
        }
        if (phase === "outage") await new Promise((r) => setTimeout(r, 20));
      }
    }

    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    await waitFor(() => acked.length >= 100, { timeout: 20_000, message: "writes before the outage" });
    phase = "outage";
    await pg.stop("immediate");
    await waitFor(() => outcomes.filter((o) => o.phase === "outage" && o.status === 503).length >= 20, {
      timeout: 10_000,
      message: "503s during the outage",
    });
    await pg.start();
    phase = "after";
    const restartedAt = Date.now();
    const ackedAtRestart = acked.length;
    await waitFor(() => acked.length >= ackedAtRestart + 100, { timeout: 20_000, message: "writes after the restart" });
    const recoveryMs = Date.now() - restartedAt;
    stop = true;
    await Promise.all(writers);

    // Never a 500; every refusal is a retryable 503 (or the 412 a lost answer explains).
    const statuses = new Map<number, number>();
    for (const o of outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    console.log(
      `postgres crash: ${outcomes.length} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}, writes again ${recoveryMs} ms after restart`,
    );
    expect([...statuses.keys()].every((s) => [200, 201, 412, 503].includes(s))).toBe(true);
    for (const o of outcomes.filter((x) => x.status === 503)) {
      expect(o).toMatchObject({ error: "unavailable", retryAfter: expect.stringMatching(/^\d+$/) });
    }
    expect(outcomes.filter((o) => o.phase === "after" && o.status < 300).length).toBeGreaterThan(0);

    // Every acknowledged version is stored.
    const db = api.database.db;
    const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));
    const stored = new Set(
      (await q<{ k: string }>(sql`select breadcrumb_id::text || ':' || version as k from breadcrumb_history`)).map((r) => r.k),
    );
    expect(acked.filter((a) => !stored.has(`${a.id}:${a.version}`))).toEqual([]);

    // No partial rows: one history row per version (and one event each: the stream check below), seq
    // unique and increasing with version per breadcrumb (the sequence may skip after the restart,
    // which is allowed), live row = newest.
    const [h] = await q<{ n: string; distinct: string }>(sql`
      select count(*)::text as n, count(distinct seq)::text as distinct from breadcrumb_history`);
    expect(h?.distinct).toBe(h?.n);
    const disordered = await q<{ id: string }>(sql`
      select a.breadcrumb_id::text as id from breadcrumb_history a join breadcrumb_history b
        on a.breadcrumb_id = b.breadcrumb_id and a.version < b.version and a.seq > b.seq limit 1`);
    expect(disordered).toEqual([]);
    const gaps = await q<{ id: string }>(sql`
      select breadcrumb_id::text as id from breadcrumb_history
      group by breadcrumb_id having count(*) <> max(version) or count(distinct version) <> count(*)`);
    expect(gaps).toEqual([]);
    const stale = await q<{ id: string }>(sql`
      select b.id::text from breadcrumbs b
      where b.version <> (select max(version) from breadcrumb_history h where h.breadcrumb_id = b.id)`);
    expect(stale).toEqual([]);
    const orphans = await q<{ n: string }>(sql`
      select count(*)::text as n from breadcrumbs b
      where not exists (select 1 from breadcrumb_history h where h.breadcrumb_id = b.id)`);
    expect(orphans[0]?.n).toBe("0");

    // The relay recovered too: every committed write reaches the stream, once.
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      await waitFor(async () => (await jsm.streams.info(STREAM_NAME)).state.messages === Number(h?.n), {
        timeout: 20_000,
        message: `${h?.n} events in the stream`,
      });
    } finally {
      await nc.close();
    }
  }, 90_000);
});
