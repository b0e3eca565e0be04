import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { rowsOf } from "../src/db/database.ts";
import { readOneChunkAndLeave } from "./leaving-client.ts";
import { startStack, type TestStack } from "./stack.ts";

// `GET /v1/events` with `Accept: application/x-ndjson`: the events streamed as Postgres reads them,
// one kept event text a line, then a closing line with the cursor (http/ndjson-events.ts).

const ROWS = 2_500;
const PAGE_MAX_BYTES = 64 * 1024;
const NDJSON = { accept: "application/x-ndjson" };

/** `rows` created events of ~1.3 KB for `owner`, written straight into history with their kept text. */
async function fill(s: TestStack, owner: string, rows: number, from: number) {
  await s.database.db.execute(sql`
    INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, breadcrumb, at, event_json)
    SELECT r.*, crumbs_event_json(r.seq, r.event, r.breadcrumb_id, r.owner, r.schema_name, r.version, r.at, NULL, r.breadcrumb)
    FROM (
      SELECT g::bigint AS seq, u.id AS breadcrumb_id, ${owner} AS owner, 1 AS version, 'created' AS event, 'chat.message.v1' AS schema_name,
             ARRAY['user:message'] AS tags,
             jsonb_build_object('id', u.id, 'owner', ${owner}::text, 'schema_name', 'chat.message.v1', 'title', 'message ' || g,
               'tags', jsonb_build_array('user:message'), 'context', jsonb_build_object('content', repeat('lorem ipsum dolor sit amet ', 45) || g),
               'version', 1, 'created_at', '2026-01-01T00:00:00.000Z', 'updated_at', '2026-01-01T00:00:00.000Z', 'created_by', 'admin', 'updated_by', 'admin') AS breadcrumb,
             timestamptz '2026-01-01' AS at
      FROM generate_series(${from}::int, ${from + rows - 1}::int) g,
           LATERAL (SELECT overlay(overlay(md5(g::text) placing '4' from 13) placing '8' from 17)::uuid AS id) u
    ) r`);
  await s.database.db.execute(sql`SELECT setval('history_seq', (SELECT max(seq) FROM breadcrumb_history))`);
}

interface Closing {
  next_after: number | null;
  has_more: boolean;
}

/** An NDJSON answer split into its event lines (as text) and its closing line. */
async function lines(res: Response): Promise<{ events: string[]; closing: Closing & { error?: string } }> {
  const text = await res.text();
  expect(text.endsWith("\n")).toBe(true);
  const all = text.slice(0, -1).split("\n");
  return { events: all.slice(0, -1), closing: JSON.parse(all.at(-1)!) as Closing };
}

describe("/v1/events streamed as NDJSON", () => {
  let s: TestStack;

  beforeAll(async () => {
    s = await startStack({ CRUMBS_PAGE_MAX_BYTES: String(PAGE_MAX_BYTES), CRUMBS_OWNER_READS: "1" });
    await fill(s, "default", ROWS, 1);
    await fill(s, "neighbour", 10, ROWS + 1);
  });
  afterAll(() => s?.dispose());

  /** Every event of the owner, through JSON pages: what the streamed lines must equal. */
  const viaPages = async () => {
    const items: string[] = [];
    let after = 0;
    for (;;) {
      const res = await s.call(`/v1/events?after=${after}&limit=1000`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { items: unknown[]; next_after: number | null; has_more: boolean };
      items.push(...page.items.map((e) => JSON.stringify(e)));
      if (!page.has_more || page.next_after === null) return items;
      after = page.next_after;
    }
  };

  it("sends the owner's events in seq order, each line the event a page holds, and resumes from the closing line", async () => {
    const want = await viaPages();
    expect(want).toHaveLength(ROWS);
    const got: string[] = [];
    let after = 0;
    let answers = 0;
    for (;;) {
      const res = await s.call(`/v1/events?after=${after}&limit=10000`, { headers: NDJSON });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/x-ndjson");
      expect(res.headers.get("etag")).toBeNull();
      const { events, closing } = await lines(res);
      answers++;
      for (const line of events) expect(line.startsWith('{"seq":')).toBe(true);
      got.push(...events.map((l) => JSON.stringify(JSON.parse(l))));
      if (!closing.has_more) {
        expect(closing.next_after).toBe(ROWS);
        break;
      }
      expect(closing.next_after).toBe(JSON.parse(events.at(-1)!).seq);
      after = closing.next_after!;
    }
    // Every event once, in order, none of the neighbour's.
    expect(got).toEqual(want);
    expect(answers).toBeGreaterThan(1);
  });

  it("is bounded: `limit` events, a hundred page reads of a third of a page's bytes each, and the cursor says where to go on", async () => {
    const res = await s.call(`/v1/events?after=0&limit=50`, { headers: NDJSON });
    const few = await lines(res);
    expect(few.events).toHaveLength(50);
    expect(few.closing).toEqual({ next_after: 50, has_more: true });

    // A third of 64 KB holds 11 events of ~1.8 KB: a hundred steps send 1,100, under `limit` and the history.
    const big = await lines(await s.call(`/v1/events?after=0&limit=10000`, { headers: NDJSON }));
    const bytes = big.events.reduce((n, l) => n + Buffer.byteLength(l), 0);
    expect(bytes).toBeLessThanOrEqual((100 * PAGE_MAX_BYTES) / 3);
    expect(big.events.length).toBeGreaterThan(1_000);
    expect(big.events.length).toBeLessThan(ROWS);
    expect(big.closing.has_more).toBe(true);
    expect(big.closing.next_after).toBe(big.events.length);

    // `since` reads from the first event at or after that time, and after the end there is nothing.
    const end = await lines(await s.call(`/v1/events?after=${ROWS}`, { headers: NDJSON }));
    expect(end).toEqual({ events: [], closing: { next_after: ROWS, has_more: false } });
    const none = await lines(await s.call(`/v1/events?since=2027-01-01T00:00:00Z`, { headers: NDJSON }));
    expect(none).toEqual({ events: [], closing: { next_after: null, has_more: false } });
  });

  it("answers bad input with the JSON error shape before streaming anything", async () => {
    const cases: [string, number, string][] = [
      ["/v1/events?limit=100001", 400, "invalid_request"],
      ["/v1/events?after=-1", 400, "invalid_request"],
      [`/v1/events?selector=${encodeURIComponent('{"schema_name":1}')}`, 422, "invalid_selector"],
    ];
    for (const [path, status, code] of cases) {
      const res = await s.call(path, { headers: NDJSON });
      expect(res.status, path).toBe(status);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error, path).toBe(code);
      expect(typeof body.message).toBe("string");
    }
    // The OpenAPI document names the streamed form beside the page.
    const doc = (await (await s.call("/openapi.json")).json()) as { paths: Record<string, { get: { responses: Record<string, { content: object }> } }> };
    expect(Object.keys(doc.paths["/v1/events"]!.get.responses["200"]!.content)).toEqual(["application/json", "application/x-ndjson"]);
    // A JSON page keeps its own bound, naming the field.
    const page = await s.call("/v1/events?limit=1001");
    expect(page.status).toBe(400);
    expect(((await page.json()) as { message: string }).message).toContain("limit");
  });
});

describe("a streamed /v1/events whose client goes away", () => {
  let s: TestStack;

  beforeAll(async () => {
    s = await startStack({ CRUMBS_OWNER_READS: "1" });
    await fill(s, "default", 12_000, 1);
  });
  afterAll(() => s?.dispose());

  it("frees the owner's read share and asks Postgres for nothing more when the client disconnects mid-stream", async () => {
    const url = await s.serve();
    // The client reads one chunk and goes away, the answer (about 17 MB, far more than the sockets buffer) far from written.
    await readOneChunkAndLeave(url, "/v1/events?after=0&limit=100000");
    // With CRUMBS_OWNER_READS=1 a read still holding the share would keep this one waiting 10 s and then refuse it (429).
    const t0 = performance.now();
    const next = await s.call("/v1/events?after=0&limit=1");
    expect(next.status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(5_000);
    await waitFor(async () => {
      const rows = rowsOf<{ n: string }>(
        await s.database.db.execute(
          sql`select count(*)::text as n from pg_stat_activity where datname = current_database() and state = 'active' and query like '%breadcrumb_history%' and pid <> pg_backend_pid()`,
        ),
      );
      return rows[0]?.n === "0";
    }, { timeout: 10_000, message: "no statement of the stream left running" });
  });
});
