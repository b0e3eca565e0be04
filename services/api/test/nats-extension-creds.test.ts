import { connect, jwtAuthenticator, AckPolicy, DeliverPolicy, type NatsConnection, type NatsError } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { ownerAdmin } from "./owner-nats.ts";
import { startLockedStack, TOKEN, type TestStack } from "./stack.ts";

/**
 * The extension's NATS credentials on a locked nats-server 2.9: a user of its owner's own account,
 * whose one durable pull consumer on that account's CRUMBS stream, bound to the owner's action
 * subject by the filtered create subject, works end to end; every way to widen it is refused.
 */
const EXT = "abcdefghijklmnop";
const DURABLE = `crumbs-ext-A-${EXT}`;
const A_ACTIONS = "crumbs.A.created.browser.action.v1";

let stack: TestStack;
const tokens = { A: "", B: "" };
const conns: NatsConnection[] = [];

const call = (path: string, token: string, json?: unknown) => stack.call(path, { token, ...(json === undefined ? {} : { method: "POST", json }) });

async function createKey(owner: string) {
  const res = await call("/v1/keys", TOKEN, { owner, scopes: ["read", "write", "subscribe"] });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

interface ExtensionCreds {
  owner: string;
  jwt: string;
  seed: string;
  extension: { stream: string; consumer: string; filter_subject: string; inbox_prefix: string };
}

async function extensionNats(token: string, extensionId = EXT) {
  const res = await call("/v1/nats/credentials", token, { kind: "extension", extension_id: extensionId });
  expect(res.status).toBe(200);
  const creds = (await res.json()) as ExtensionCreds;
  const nc = await connect({
    servers: stack.natsServer.url,
    authenticator: jwtAuthenticator(creds.jwt, new TextEncoder().encode(creds.seed)),
    inboxPrefix: creds.extension.inbox_prefix,
  });
  conns.push(nc);
  const violations: string[] = [];
  void (async () => {
    for await (const s of nc.status()) if (s.type === "error") violations.push(String(s.data));
  })();
  return { nc, creds, violations };
}

/** A raw JetStream API request; a refused publish never gets an answer, so it times out. */
async function jsRequest(nc: NatsConnection, subject: string, body: unknown): Promise<{ error?: { description: string } } | "no answer"> {
  try {
    const m = await nc.request(subject, JSON.stringify(body), { timeout: 1_500 });
    return m.json();
  } catch {
    return "no answer";
  }
}

const consumerConfig = (filter: string, durable = DURABLE) => ({
  stream_name: "CRUMBS",
  config: { durable_name: durable, filter_subject: filter, ack_policy: "explicit", deliver_policy: "new" },
});

async function action(token: string, ext = EXT) {
  const res = await call("/v1/breadcrumbs", token, {
    schema_name: "browser.action.v1",
    title: "test action",
    tags: [`extension:${ext}`],
    context: { action: "snapshot", params: {}, target_extension: ext, request_id: crypto.randomUUID() },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

/** What owner A's account holds, seen by the API's own user of it. */
let adminA: NatsConnection;
let adminB: NatsConnection;
const consumerInfo = async (name: string) =>
  (await adminA.jetstreamManager()).consumers.info("CRUMBS", name).catch(() => undefined);

beforeAll(async () => {
  stack = await startLockedStack({ CRUMBS_RELAY_POLL_MS: "100" });
  tokens.A = await createKey("A");
  tokens.B = await createKey("B");
  // Minting pushes the owners' accounts; B's exists too, so that B's actions have somewhere to go.
  await extensionNats(tokens.A);
  await extensionNats(tokens.B);
  adminA = await ownerAdmin(stack, "A");
  adminB = await ownerAdmin(stack, "B");
  conns.push(adminA, adminB);
}, 60_000);

afterAll(async () => {
  for (const nc of conns) await nc.close().catch(() => {});
  await stack?.dispose();
});

describe("extension NATS credentials (locked nats-server)", () => {
  it("the request must name the extension, with a subject-safe id", async () => {
    expect((await call("/v1/nats/credentials", tokens.A, { kind: "extension" })).status).toBe(400);
    expect((await call("/v1/nats/credentials", tokens.A, { kind: "extension", extension_id: "a.b" })).status).toBe(400);
    expect((await call("/v1/nats/credentials", tokens.A, { kind: "extension", extension_id: "x-abc" })).status).toBe(400);
    expect((await call("/v1/nats/credentials", tokens.A, { kind: "agent", extension_id: EXT })).status).toBe(400);
  });

  it("create their own durable on their own action subject, receive the owner's actions and ack them", async () => {
    const { nc, creds } = await extensionNats(tokens.A);
    expect(creds.extension).toEqual({ stream: "CRUMBS", consumer: DURABLE, filter_subject: A_ACTIONS, inbox_prefix: "_INBOX_A" });
    // What the extension does (startActionLoop, extension/src/background/nats/consumer.ts): no account-info probe, create, then pull.
    const jsm = await nc.jetstreamManager({ checkAPI: false });
    await jsm.consumers.add("CRUMBS", {
      durable_name: DURABLE,
      filter_subject: A_ACTIONS,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
    });
    // Updating it (same filter) is the same create call.
    await jsm.consumers.update("CRUMBS", DURABLE, { ack_wait: 5_000_000_000 });
    await action(tokens.B); // another owner's action never reaches this consumer
    const mine = await action(tokens.A);
    const consumer = await nc.jetstream().consumers.get("CRUMBS", DURABLE);
    const m = await consumer.next({ expires: 5_000 });
    expect(m?.subject).toBe(A_ACTIONS);
    expect((m?.json() as { id: string }).id).toBe(mine.id);
    expect(await m!.ackAck()).toBe(true);
    await waitFor(async () => (await consumerInfo(DURABLE))?.num_ack_pending === 0, { timeout: 5_000 });
  });

  it("are refused another owner's subject, another durable, an unfiltered or legacy create and stream management", async () => {
    const { nc, violations } = await extensionNats(tokens.A);
    const refused = [
      // B's actions, on A's durable name or on a durable of B's name.
      [`$JS.API.CONSUMER.CREATE.CRUMBS.${DURABLE}.crumbs.B.created.browser.action.v1`, consumerConfig("crumbs.B.created.browser.action.v1")],
      [`$JS.API.CONSUMER.CREATE.CRUMBS.crumbs-ext-B-${EXT}.crumbs.B.created.browser.action.v1`, consumerConfig("crumbs.B.created.browser.action.v1", `crumbs-ext-B-${EXT}`)],
      // Another durable on A's own subject.
      [`$JS.API.CONSUMER.CREATE.CRUMBS.other.${A_ACTIONS}`, consumerConfig(A_ACTIONS, "other")],
      // No filter in the subject: the new API without one, the legacy durable and ephemeral creates.
      [`$JS.API.CONSUMER.CREATE.CRUMBS.${DURABLE}`, consumerConfig("crumbs.>")],
      [`$JS.API.CONSUMER.DURABLE.CREATE.CRUMBS.${DURABLE}`, consumerConfig("crumbs.>")],
      [`$JS.API.CONSUMER.CREATE.CRUMBS`, { stream_name: "CRUMBS", config: { filter_subject: "crumbs.>", ack_policy: "explicit" } }],
      // Stream and account management, another durable's messages and info.
      ["$JS.API.STREAM.INFO.CRUMBS", {}],
      ["$JS.API.STREAM.PURGE.CRUMBS", {}],
      ["$JS.API.STREAM.DELETE.CRUMBS", {}],
      ["$JS.API.STREAM.CREATE.MINE", { name: "MINE", subjects: ["crumbs.B.>"] }],
      ["$JS.API.STREAM.MSG.GET.CRUMBS", { seq: 1 }],
      ["$JS.API.INFO", {}],
      [`$JS.API.CONSUMER.DELETE.CRUMBS.${DURABLE}`, {}],
      [`$JS.API.CONSUMER.MSG.NEXT.CRUMBS.crumbs-ext-B-${EXT}`, { batch: 1 }],
      [`$JS.API.CONSUMER.INFO.CRUMBS.crumbs-ext-B-${EXT}`, {}],
    ] as const;
    for (const [subject, body] of refused) expect([subject, await jsRequest(nc, subject, body)]).toEqual([subject, "no answer"]);
    expect(violations.filter((v) => /PERMISSIONS_VIOLATION/.test(v)).length).toBeGreaterThan(0);
    expect(await consumerInfo("other")).toBeUndefined();
    expect(await consumerInfo(`crumbs-ext-B-${EXT}`)).toBeUndefined();
    expect((await consumerInfo(DURABLE))?.config.filter_subject).toBe(A_ACTIONS);
  });

  it("the allowed create subject refuses a body whose filter is wider than the subject's", async () => {
    const { nc } = await extensionNats(tokens.A);
    for (const filter of ["crumbs.>", "crumbs.B.created.browser.action.v1", "crumbs.*.created.browser.action.v1"]) {
      const answer = await jsRequest(nc, `$JS.API.CONSUMER.CREATE.CRUMBS.${DURABLE}.${A_ACTIONS}`, consumerConfig(filter));
      expect(answer).toMatchObject({ error: { description: expect.stringMatching(/did not match filtered subject/) } });
    }
    const none = await jsRequest(nc, `$JS.API.CONSUMER.CREATE.CRUMBS.${DURABLE}.${A_ACTIONS}`, {
      stream_name: "CRUMBS",
      config: { durable_name: DURABLE, ack_policy: "explicit" },
    });
    expect(none).toMatchObject({ error: {} });
    expect((await consumerInfo(DURABLE))?.config.filter_subject).toBe(A_ACTIONS);
  });

  it("subscribe only to the owner's own inbox, never the shared _INBOX.> or another owner's", async () => {
    const { nc } = await extensionNats(tokens.A);
    const refusals: Record<string, string | undefined> = {};
    for (const subject of ["_INBOX.>", "_INBOX_B.>", "_INBOX_A.>"]) {
      nc.subscribe(subject, { callback: (err: NatsError | null) => err && (refusals[subject] = err.message) });
    }
    await nc.flush();
    await waitFor(() => refusals["_INBOX.>"] && refusals["_INBOX_B.>"], { timeout: 5_000 });
    expect(refusals["_INBOX_A.>"]).toBeUndefined();
  });

  it("residual (SECURITY.md): a push consumer is possible, bound to the owner's actions, and delivers only inside the owner's account", async () => {
    // nats-server 2.9 does not check deliver_subject against the creator's permissions: the
    // credentials can have the owner's own actions delivered to any subject of the owner's account.
    const { nc } = await extensionNats(tokens.A, "pushprobe");
    const name = "crumbs-ext-A-pushprobe";
    const create = (deliver: string) =>
      jsRequest(nc, `$JS.API.CONSUMER.CREATE.CRUMBS.${name}.${A_ACTIONS}`, {
        stream_name: "CRUMBS",
        config: { durable_name: name, filter_subject: A_ACTIONS, ack_policy: "none", deliver_policy: "new", deliver_subject: deliver },
      });
    // Onto the stream's subjects (crumbs.>, B's included) is a cycle; onto B's replay subject is a subject of A's
    // account that nothing imports.
    for (const cycle of ["crumbs.A.created.note.v1", "crumbs.B.created.note.v1"]) {
      expect(await create(cycle)).toMatchObject({ error: { description: "consumer deliver subject forms a cycle" } });
    }
    expect(await create("replay.B.created.note.v1")).toMatchObject({ config: { filter_subject: A_ACTIONS } });
    const bStream = async () => (await adminB.jetstreamManager()).streams.info("REPLAY");
    const mainBefore = (await (await stack.nats.nc.jetstreamManager()).streams.info("CRUMBS")).state.messages;
    const bBefore = (await bStream()).state.messages;
    await action(tokens.A);
    // A push consumer delivers only where someone in A's account listens, and none of A's users may listen on
    // replay.B.>: the action stays pending. Had it been delivered, it would be on A's own replay.B... subject,
    // which no stream and no import carries anywhere.
    const held = await waitFor(
      async () => {
        const i = await consumerInfo(name);
        return i && i.num_pending >= 1 ? i : undefined;
      },
      { message: "A's action reached the push consumer" },
    );
    expect(held.delivered.consumer_seq).toBe(0);
    expect((await bStream()).state.messages).toBe(bBefore);
    expect((await (await stack.nats.nc.jetstreamManager()).streams.info("CRUMBS")).state.messages).toBe(mainBefore + 1);
  });
});
