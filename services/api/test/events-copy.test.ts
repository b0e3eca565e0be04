import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { rowsOf } from "../src/db/database.ts";
import { EventSteps, type EventStepsQuery } from "../src/store/event-lines.ts";
import { readOneChunkAndLeave } from "./leaving-client.ts";
import { startStack, type TestStack } from "./stack.ts";

// A streamed /v1/events answer without a selector is read by one COPY per step (store/event-copy.ts):
// its bytes must be the row read's, byte for byte, and a client leaving mid-answer must leave no
// connection behind, even with a pool of one.

const NDJSON = { accept: "application/x-ndjson" };

/**
 * `rows` events of `owner` from seq `first + 1`: titles, tags and values with every escape jsonb
 * writes, raw multi-byte UTF-8 and CSV-looking text; every `unkeptEvery`-th without kept text
 * (as rows written before the text was kept), built by the same function when read.
 */
async function fill(s: TestStack, owner: string, first: number, rows: number, unkeptEvery = 0) {
  await s.database.db.execute(sql`
    INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, breadcrumb, at, event_json)
    SELECT r.*, CASE WHEN ${unkeptEvery}::int = 0 OR r.seq % ${unkeptEvery || 1}::int <> 0
                     THEN crumbs_event_json(r.seq, r.event, r.breadcrumb_id, r.owner, r.schema_name, r.version, r.at, NULL, r.breadcrumb) END
    FROM (
      SELECT (${first}::int + g)::bigint AS seq, gen_random_uuid() AS breadcrumb_id, ${owner}::text AS owner, 1 AS version, 'created' AS event,
             'chat.message.v1' AS schema_name, ARRAY['t"ag\\', 'é'] AS tags,
             jsonb_build_object('title', E'quote " back\\\\slash \\\\u0041 ' || g, 'tags', jsonb_build_array(E't"ag\\\\', 'é'),
               'context', jsonb_build_object(E'k\\x01e"y', E'nl\\n cr\\r tab\\t ctl\\x01\\x02\\x1f del\\x7f',
                 'utf8', 'é ü 日本語 🎉 ' || chr(8232) || chr(8233) || ' ' || g, 'sep', E'\\x01,\\x02;\\x01\\x01',
                 'csv', E'"a","b"\\n"c"', 'pad', repeat('lorem ipsum ', 100))) AS breadcrumb,
             timestamptz '2026-01-01' + g * interval '1 s' AS at
      FROM generate_series(1, ${rows}::int) g
    ) r`);
  await s.database.db.execute(sql`SELECT setval('history_seq', (SELECT max(seq) FROM breadcrumb_history))`);
}

async function answer(steps: EventSteps): Promise<{ bytes: Buffer; end: EventSteps["end"] }> {
  const parts: Buffer[] = [];
  for (let lines = await steps.next(); lines; lines = await steps.next()) parts.push(lines);
  return { bytes: Buffer.concat(parts), end: steps.end };
}

describe("a streamed answer read by COPY", () => {
  let s: TestStack;

  beforeAll(async () => {
    s = await startStack();
    await fill(s, "kept", 0, 3_000);
    await fill(s, "mixed", 3_000, 400, 3);
  });
  afterAll(() => s?.dispose());

  it("is the row read's answer byte for byte, rows without kept text included, at every bound", async () => {
    let copies = 0;
    const copyOut = s.database.copyOut!;
    const withCopy = { db: s.database.db, copyOut: (statement: string) => (copies++, copyOut(statement)) };
    const cases: [string, EventStepsQuery][] = [
      ["kept", { limit: 100_000, pageMaxBytes: 4 * 1024 * 1024 }],
      ["kept", { after: 17, limit: 2_500, pageMaxBytes: 16 * 1024 }],
      ["kept", { limit: 7, pageMaxBytes: 1 }],
      ["kept", { since: new Date("2026-01-01T00:10:00Z"), until: new Date("2026-01-01T00:30:00Z"), limit: 100_000, pageMaxBytes: 64 * 1024 }],
      ["mixed", { limit: 100_000, pageMaxBytes: 64 * 1024 }],
      ["mixed", { after: 3_100, limit: 250, pageMaxBytes: 4 * 1024 * 1024 }],
      ["nobody", { limit: 10, pageMaxBytes: 64 * 1024 }],
    ];
    for (const [owner, q] of cases) {
      const rows = await answer(new EventSteps({ db: s.database.db }, owner, q));
      const copied = await answer(new EventSteps(withCopy, owner, q));
      expect(copied.end, `${owner} ${JSON.stringify(q)}`).toEqual(rows.end);
      expect(copied.bytes.equals(rows.bytes), `${owner} ${JSON.stringify(q)}`).toBe(true);
    }
    expect(copies).toBeGreaterThan(cases.length);
  });
});

describe("a client leaving a streamed answer read by COPY", () => {
  let s: TestStack;

  beforeAll(async () => {
    // One connection in the pool: a COPY left half read would keep it, and every later query would wait.
    s = await startStack({ CRUMBS_PG_POOL: "1", CRUMBS_OWNER_READS: "1" });
    await fill(s, "default", 0, 12_000);
  });
  afterAll(() => s?.dispose());

  it("leaves its connection answering: COPY after COPY of rows over the driver's buffer, then a query, on the one connection", async () => {
    // Rows of 700 KB, each far over what the driver's stream buffers (64 KB), as fast as Postgres makes them.
    const text = `copy (select repeat('x', 700000) from generate_series(1, 2)) to stdout`;
    for (let i = 0; i < 5; i++) expect((await s.database.copyOut!(text)).length).toBe(1_400_002);
    const rows = rowsOf<{ n: string }>(await s.database.db.execute(sql`select count(*)::text as n from breadcrumb_history`));
    expect(rows[0]?.n).toBe("12000");
  });

  it("leaves the pool serving: no COPY left running, the next answers whole", async () => {
    const url = await s.serve();
    for (let round = 0; round < 3; round++) {
      await readOneChunkAndLeave(url, `/v1/events?after=${round * 10}&limit=100000`);
    }
    await waitFor(async () => {
      const rows = rowsOf<{ n: string }>(
        await s.database.db.execute(
          sql`select count(*)::text as n from pg_stat_activity where datname = current_database() and state = 'active' and query ilike '%copy%' and pid <> pg_backend_pid()`,
        ),
      );
      return rows[0]?.n === "0";
    }, { timeout: 10_000, message: "no COPY of the streams left running" });
    const whole = await s.call("/v1/events?after=0&limit=100000", { headers: NDJSON });
    expect(whole.status).toBe(200);
    const lines = (await whole.text()).trimEnd().split("\n");
    expect(lines).toHaveLength(12_001);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ next_after: 12_000, has_more: false });
    expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(Array.from({ length: 12_000 }, (_, i) => i + 1));
  });
});
