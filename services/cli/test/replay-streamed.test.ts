import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiConfig, startApi } from "@crumbs/api";
import { EVENTS_NDJSON } from "@crumbs/schemas";
import { createTestDatabase, NatsServer, waitFor, type TestDatabase } from "@crumbs/testkit";
import { cleanEnv, runCli } from "./run-cli.ts";

// `crumbs replay --publish` reads /v1/events streamed as NDJSON and publishes each line's bytes as
// the API sent them. With 64 KB pages an answer holds a hundred steps of about ten 3 KB events, so
// these 2,400 events take three answers, each resumed from the closing line of the one before.

const token = "cli-stream-token-0123456789";
const EVENTS = 2_400;
let nats: NatsServer;
let db: TestDatabase;
let api: { url: string; close(): Promise<void> };
let nc: NatsConnection;
let env: NodeJS.ProcessEnv;

async function post(path: string, body: unknown, bearer = token) {
  const res = await fetch(`${api.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  [nats, db] = await Promise.all([NatsServer.start(), createTestDatabase("crumbs_cli_stream")]);
  api = await startApi({
    config: loadApiConfig({ DATABASE_URL: db.url, NATS_URL: nats.url, PORT: "0", HOST: "127.0.0.1", CRUMBS_TOKEN: token, CRUMBS_PAGE_MAX_BYTES: "65536" }),
  });
  nc = await connect({ servers: nats.url });
  env = cleanEnv({ CRUMBS_URL: api.url, CRUMBS_TOKEN: token, NATS_URL: nats.url });
  // Another owner's events lie between this owner's: none of them may be replayed.
  const other = (await post("/v1/keys", { owner: "other", scopes: ["read", "write"], name: "other" })).token as string;
  const text = "x".repeat(3_000);
  for (let i = 0; i < EVENTS; i += 8) {
    await Promise.all(
      Array.from({ length: 8 }, (_, j) => post("/v1/breadcrumbs", { schema_name: "note.v1", title: `note ${i + j} "quoted" é`, context: { text, n: i + j } })),
    );
    if (i % 400 === 0) await post("/v1/breadcrumbs", { schema_name: "note.v1", title: "not yours", context: { text } }, other);
  }
}, 300_000);

afterAll(async () => {
  await nc?.close();
  await api?.close();
  await db?.drop();
  await nats?.dispose();
});

/** The owner's events as the JSON pages of /v1/events give them: the reference. */
async function pages(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let after = 0; ; ) {
    const res = await fetch(`${api.url}/v1/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${token}` } });
    const page = (await res.json()) as { items: Record<string, unknown>[]; next_after: number | null; has_more: boolean };
    items.push(...page.items);
    if (!page.has_more || page.next_after === null) return items;
    after = page.next_after;
  }
}

/** The owner's events as /v1/events streams them (NDJSON), each line's text as sent, answers followed to the end. */
async function streamedLines(): Promise<string[]> {
  const lines: string[] = [];
  for (let after = 0; ; ) {
    const res = await fetch(`${api.url}/v1/events?after=${after}`, { headers: { authorization: `Bearer ${token}`, accept: EVENTS_NDJSON } });
    expect(res.status).toBe(200);
    const answer = (await res.text()).split("\n").filter(Boolean);
    const closing = JSON.parse(answer.pop()!) as { next_after: number | null; has_more: boolean };
    lines.push(...answer);
    if (!closing.has_more || closing.next_after === null) return lines;
    after = closing.next_after;
  }
}

describe("crumbs replay --publish over a streamed history", () => {
  it("publishes every event of the owner once, in seq order, on the owner's subjects, as the bytes the API sent", async () => {
    const want = await pages();
    expect(want).toHaveLength(EVENTS);
    const received: { subject: string; data: string; msgId: string | undefined }[] = [];
    const sub = nc.subscribe("replayed.>", { callback: (_e, m) => received.push({ subject: m.subject, data: m.string(), msgId: m.headers?.get("Nats-Msg-Id") }) });
    await nc.flush();
    const res = await runCli(["replay", "--publish", "replayed"], { env });
    expect(res.code).toBe(0);
    await waitFor(() => received.length >= EVENTS, { timeout: 30_000, message: `${EVENTS} messages` });
    await nc.flush();
    sub.unsubscribe();
    expect(received).toHaveLength(EVENTS);
    expect(received.map((r) => JSON.parse(r.data) as unknown)).toEqual(want);
    for (const [i, r] of received.entries()) {
      const e = want[i]!;
      expect(r.subject).toBe("replayed.default.created.note.v1");
      expect(r.msgId).toBe(`${e.id as string}:${e.version as number}:created`);
    }
    // The bytes as the API streamed them (its stored event text), not serialised again by the CLI.
    expect(received.map((r) => r.data)).toEqual(await streamedLines());
    // One printed line per event, in the same order, and the summary.
    const printed = res.stdout.trim().split("\n");
    expect(printed.map((l) => Number(l.split(" ")[0]))).toEqual(want.map((e) => e.seq));
    expect(res.stderr).toMatch(new RegExp(`replayed ${EVENTS} events .*; published to replayed\\.>: 0 into JetStream, ${EVENTS} core`));
  });

  it("stores every event once into a stream that covers the prefix, in seq order, however often it runs", async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: "STREAMED", subjects: ["stored.>"] });
    const first = await runCli(["replay", "--publish", "stored", "--json"], { env });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`${EVENTS} into JetStream`);
    const again = await runCli(["replay", "--publish", "stored"], { env });
    expect(again.stderr).toContain(`(${EVENTS} already there)`);
    expect((await jsm.streams.info("STREAMED")).state.messages).toBe(EVENTS);
    const seqs: number[] = [];
    const consumer = await nc.jetstream().consumers.get("STREAMED");
    const batch = await consumer.fetch({ max_messages: EVENTS, expires: 10_000 });
    for await (const m of batch) {
      seqs.push((m.json() as { seq: number }).seq);
      if (seqs.length === EVENTS) break;
    }
    expect(seqs).toEqual((await pages()).map((e) => e.seq));
    // --json prints each event's JSON, one a line.
    expect(first.stdout.trim().split("\n").map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(seqs);
  });
});
