import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { connect, headers as natsHeaders, type NatsConnection } from "nats";
import postgres from "postgres";
import { request } from "node:http";
import { EVENTS_NDJSON, EVENTS_STREAM_MAX_EVENTS } from "@crumbs/schemas";
import type { Suite } from "../types.ts";
import { round } from "../stats.ts";
import { higherIsBetter } from "../lib/figures.ts";
import { startStack, TOKEN } from "../lib/stack.ts";

const ROWS = 100_000;
const cli = fileURLToPath(new URL("../../services/cli/bin/crumbs.js", import.meta.url));

/**
 * 100,000 created events of chat messages (~1 KB each), written straight into history (the API would
 * take minutes), each with its event's JSON text kept as the API's write statement keeps it, and the
 * breadcrumb also as jsonb (as rows of 0012-0013 have it): the cursor baseline reads that column, parsed
 * by the driver, as the bench's client parses each streamed event.
 */
export async function fillHistory(sql: postgres.Sql, rows: number) {
  await sql`
    INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, breadcrumb, at, event_json)
    SELECT r.*, crumbs_event_json(r.seq, r.event, r.breadcrumb_id, r.owner, r.schema_name, r.version, r.at, NULL, r.breadcrumb)
    FROM (
    SELECT g::bigint AS seq, u.id AS breadcrumb_id, 'default' AS owner, 1 AS version, 'created' AS event, 'chat.message.v1' AS schema_name,
           ARRAY['user:message', 'session:s' || (g % 100)] AS tags,
           jsonb_build_object(
             'id', u.id, 'owner', 'default', 'schema_name', 'chat.message.v1', 'title', 'message ' || g,
             'tags', jsonb_build_array('user:message', 'session:s' || (g % 100)),
             'context', jsonb_build_object('role', 'user', 'session_id', 's' || (g % 100),
                                           'content', repeat('lorem ipsum dolor sit amet ', 28) || g),
             'version', 1, 'created_at', t, 'updated_at', t, 'created_by', 'admin', 'updated_by', 'admin') AS breadcrumb,
           t::timestamptz AS at
    FROM generate_series(1, ${rows}::int) g,
         LATERAL (SELECT to_char(timestamp '2026-01-01' + g * interval '1 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t) ts,
         -- A v4-shaped id (version and variant digits set), as the contract's uuid check and the SDK require.
         LATERAL (SELECT overlay(overlay(md5(g::text) placing '4' from 13) placing '8' from 17)::uuid AS id) u
    ) r`;
  await sql`SELECT setval('history_seq', ${rows})`;
  await sql`VACUUM ANALYZE breadcrumb_history`;
}

/** The lines of a streamed `/v1/events` answer, as strings, decoded a chunk at a time. */
async function* ndjsonGet(url: string): AsyncGenerator<string> {
  const res = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
    request(url, { headers: { authorization: `Bearer ${TOKEN}`, accept: EVENTS_NDJSON } }, resolve).on("error", reject).end();
  });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode}`);
  res.setEncoding("utf8");
  let rest = "";
  for await (const chunk of res as AsyncIterable<string>) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    yield* lines;
  }
  if (rest) yield rest;
}

/**
 * The replay's floor: `count` copies of one replayed event's JSON published by one nats.js connection on a replay
 * subject, each with its own Nats-Msg-Id, flushed every 1,000 (what `crumbs replay --publish` sends, minus the read).
 */
export async function publishLikeReplay(nc: NatsConnection, sample: string, count: number) {
  const enc = new TextEncoder();
  for (let i = 0; i < count; i++) {
    const h = natsHeaders();
    h.set("Nats-Msg-Id", `x:${i}:created`);
    nc.publish("replay.default.created.chat.message.v1", enc.encode(sample), { headers: h });
    if (i % 1_000 === 999) await nc.flush();
  }
  await nc.flush();
}

function runCli(args: string[], env: Record<string, string>): Promise<{ seconds: number; stderr: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code === 0) resolve({ seconds: (performance.now() - t0) / 1000, stderr });
      else reject(new Error(`crumbs ${args.join(" ")} exited ${code}: ${JSON.stringify(stderr)}`));
    });
  });
}

export const replay: Suite = {
  name: "replay",
  description: "events/s from /v1/events and from `crumbs replay --publish` over 100,000 history rows",
  async run({ log }) {
    const stack = await startStack();
    const sql = postgres(stack.db.url, { max: 1, onnotice: () => {} });
    const nc = await connect({ servers: stack.nats.url });
    try {
      log(`writing ${ROWS} history rows`);
      await fillHistory(sql, ROWS);

      // Baseline 1: the same rows, in the same order, straight from Postgres through the same driver.
      let t0 = performance.now();
      let direct = 0;
      for await (const batch of sql`select seq, event, breadcrumb, at from breadcrumb_history where owner = 'default' order by seq`.cursor(1_000)) {
        direct += batch.length;
      }
      const directRate = direct / ((performance.now() - t0) / 1000);

      // /v1/events streamed (Accept: application/x-ndjson, the SDK's replay path), each event parsed
      // as the cursor's driver parses its rows, following each answer's closing line. node:http and a
      // decode per chunk: the client shares the two cores with what it measures (bench/lib/http.ts).
      t0 = performance.now();
      let viaApi = 0;
      let answers = 0;
      let sample = "";
      for (let after = 0; ; answers++) {
        let closing: { next_after: number | null; has_more: boolean } | undefined;
        for await (const line of ndjsonGet(`${stack.api.url}/v1/events?after=${after}&limit=${EVENTS_STREAM_MAX_EVENTS}`)) {
          const item = JSON.parse(line) as { seq?: number; next_after: number | null; has_more: boolean };
          if (item.seq === undefined) closing = item;
          else viaApi++;
          sample ||= line;
        }
        if (!closing) throw new Error(`/v1/events after=${after}: the answer ended without its closing line`);
        if (!closing.has_more || closing.next_after === null) break;
        after = closing.next_after;
      }
      const apiRate = viaApi / ((performance.now() - t0) / 1000);
      if (viaApi !== ROWS) throw new Error(`/v1/events gave ${viaApi} events, expected ${ROWS}`);

      // The JSON pages of /v1/events (limit 1,000), for the record: the request-per-page chain.
      t0 = performance.now();
      let paged = 0;
      for (let after = 0; ; ) {
        const page = await stack.http.json<{ items: unknown[]; next_after: number | null; has_more: boolean }>("GET", `/v1/events?after=${after}&limit=1000`, 200);
        paged += page.items.length;
        if (!page.has_more || page.next_after === null) break;
        after = page.next_after;
      }
      const pagedRate = paged / ((performance.now() - t0) / 1000);
      log(`direct SQL ${Math.round(directRate)}/s, /v1/events streamed ${Math.round(apiRate)}/s in ${answers + 1} answers, JSON pages ${Math.round(pagedRate)}/s`);

      // crumbs replay --publish: a live subscriber counts what arrives.
      let received = 0;
      const sub = nc.subscribe("replay.>", { callback: () => received++ });
      await nc.flush();
      const env = { CRUMBS_URL: stack.api.url, CRUMBS_TOKEN: TOKEN, NATS_URL: stack.nats.url };
      const run = await runCli(["replay", "--publish", "replay"], env);
      const deadline = Date.now() + 10_000;
      while (received < ROWS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (received !== ROWS) throw new Error(`subscriber received ${received} of ${ROWS} replayed events`);
      const cliRate = ROWS / run.seconds;
      const reported = Number(/\((\d+) events\/s\)/.exec(run.stderr)?.[1] ?? NaN);
      log(`crumbs replay --publish: ${Math.round(cliRate)}/s wall clock incl. start-up (${reported}/s as it reports)`);

      // Baseline 2: the same number of same-size messages published by one nats.js connection.
      received = 0;
      t0 = performance.now();
      await publishLikeReplay(nc, sample, ROWS);
      while (received < ROWS && Date.now() < deadline + 20_000) await new Promise((r) => setTimeout(r, 10));
      const natsRate = ROWS / ((performance.now() - t0) / 1000);
      sub.unsubscribe();
      return {
        suite: "replay",
        figures: [
          higherIsBetter({ metric: "/v1/events (streamed) events/s", value: round(apiRate, 0), unit: "/s", baseline: { name: "same rows via SQL cursor", value: round(directRate, 0), unit: "/s" }, goal: ">= 0.5x", minRatio: 0.5 }),
          higherIsBetter({ metric: "crumbs replay --publish events/s", value: round(cliRate, 0), unit: "/s", baseline: { name: "nats.js publish, same msgs", value: round(natsRate, 0), unit: "/s" }, goal: ">= 0.5x", minRatio: 0.5 }),
        ],
        params: {
          rows: ROWS,
          event_bytes: sample.length,
          cli_reported_per_s: reported,
          cli_seconds: run.seconds,
          json_pages_per_s: round(pagedRate, 0),
          json_pages_ratio: round(pagedRate / directRate, 3),
        },
      };
    } finally {
      await nc.close();
      await sql.end();
      await stack.close();
    }
  },
};
