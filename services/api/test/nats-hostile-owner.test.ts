import { AckPolicy, connect, DeliverPolicy, jwtAuthenticator, type NatsConnection, type StreamInfo } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { mintUser, ownerAccountKey } from "../src/nats-auth/index.ts";
import { connectWith, createOwnerKey, mintCreds, ownerAdmin, putNote, type MintedCreds } from "./owner-nats.ts";
import { startLockedStack, type TestStack } from "./stack.ts";

/**
 * A hostile owner (H) with every kind of credential an owner can get (agent, extension, and the
 * agent credentials `crumbs replay --publish` uses) against a victim owner (V), on a locked
 * nats-server: every subject those credentials may publish on, with the reply subject aimed at
 * V's subjects, at the main stream's, at the owner feed and at H's own imported subject; requests
 * whose answers are ~555 KB; push consumers delivering to the same places; a stream config that
 * widens to V's subjects. Nothing may land in V's account or the main CRUMBS stream, and no event
 * of V's may be evicted (SECURITY.md, "NATS").
 */
let stack: TestStack;
const conns: NatsConnection[] = [];
const track = (nc: NatsConnection) => (conns.push(nc), nc);

const createKey = async (owner: string) => (await createOwnerKey(stack, owner)).token;
const put = (token: string, title: string) => putNote(stack, token, title);

/** A user of `owner`'s account (or the CRUMBS account) that hears everything arriving there: never one an owner gets. */
async function catchAll(account: "CRUMBS" | string) {
  const seed = stack.config.auth!.natsAccountSeed!;
  const user = mintUser({
    accountSeed: account === "CRUMBS" ? seed : ownerAccountKey(seed, account).seed,
    name: "test-catch-all",
    permissions: { pub: ["_INBOX.>"], sub: [">"] },
  });
  const nc = track(await connect({ servers: stack.natsServer.url, authenticator: jwtAuthenticator(user.jwt, new TextEncoder().encode(user.seed)) }));
  const heard: string[] = [];
  nc.subscribe(">", { callback: (_e, m) => heard.push(m.subject) });
  await nc.flush();
  return heard;
}

const V = "victim";
const H = "hostile";
const tokens = { V: "", H: "" };

/** Reply subjects aimed everywhere an answer must not land. */
const targets = [
  `crumbs.${V}.created.note.v1`,
  `crumbs-owner.${V}.created.note.v1`,
  `replay.${V}.created.note.v1`,
  `crumbs.${H}.created.note.v1`, // the hostile owner's own imported subject: its own stream, see below
  `crumbs-owner.${H}.created.note.v1`,
  "$JS.API.STREAM.DELETE.CRUMBS",
  "$JS.API.STREAM.PURGE.CRUMBS",
  "$JS.API.CONSUMER.CREATE.CRUMBS",
  "$SYS.REQ.CLAIMS.UPDATE",
  "_INBOX.victim",
];

/** A consumer create whose answer echoes a 50,000-entry backoff list: about 555 KB. */
const hugeCreate = (name: string) =>
  JSON.stringify({
    stream_name: "CRUMBS",
    config: { durable_name: name, ack_policy: "explicit", max_deliver: 50_001, backoff: Array.from({ length: 50_000 }, () => 1_000_000_000) },
  });

const mainStream = async (): Promise<StreamInfo> => (await stack.nats.nc.jetstreamManager()).streams.info("CRUMBS");

let victimAdmin: NatsConnection;
const victimStreams = async () => {
  const jsm = await victimAdmin.jetstreamManager();
  return Promise.all(["CRUMBS", "REPLAY"].map((s) => jsm.streams.info(s).then((i) => i.state)));
};

beforeAll(async () => {
  stack = await startLockedStack({ CRUMBS_RELAY_POLL_MS: "100" });
  tokens.V = await createKey(V);
  tokens.H = await createKey(H);
  await mintCreds(stack, tokens.V);
  await mintCreds(stack, tokens.H);
  victimAdmin = track(await ownerAdmin(stack, V));
}, 60_000);

afterAll(async () => {
  for (const nc of conns) await nc.close().catch(() => {});
  await stack?.dispose();
});

describe("a hostile owner", () => {
  it("cannot put anything into another owner's account or the main stream, nor evict an event, with any credential it can get", async () => {
    for (let i = 0; i < 5; i++) await put(tokens.V, `victim ${i}`);
    const last = await put(tokens.H, "hostile's own");
    // The victim's replay stream holds something too.
    const victimAgent = await connectWith(stack, await mintCreds(stack, tokens.V));
    track(victimAgent.nc);
    await victimAgent.nc.jetstream().publish(`replay.${V}.created.note.v1`, "{}", { msgID: "victim-replay" });
    await waitFor(async () => (await victimStreams())[0]!.messages === 5, { message: "the victim's 5 events in its stream" });
    await waitFor(async () => (await mainStream()).state.messages === 6, { message: "6 events on the main stream" });
    void last;
    const mainBefore = (await mainStream()).state;
    const victimBefore = await victimStreams();
    const victimLive: string[] = [];
    victimAgent.nc.subscribe(`*.${V}.>`, { callback: (_e, m) => victimLive.push(m.subject) });
    await victimAgent.nc.flush();
    const heardByVictimAccount = await catchAll(V);
    const heardByMain = await catchAll("CRUMBS");

    const kinds: { what: string; creds: MintedCreds; subjects: string[] }[] = [
      {
        what: "agent",
        creds: await mintCreds(stack, tokens.H),
        subjects: [
          "$JS.API.INFO",
          "$JS.API.STREAM.NAMES",
          "$JS.API.STREAM.LIST",
          "$JS.API.STREAM.INFO.CRUMBS",
          "$JS.API.STREAM.INFO.REPLAY",
          "$JS.API.STREAM.MSG.GET.CRUMBS",
          "$JS.API.CONSUMER.NAMES.CRUMBS",
          "$JS.API.CONSUMER.LIST.CRUMBS",
          "$JS.API.CONSUMER.CREATE.CRUMBS",
          "$JS.API.CONSUMER.DURABLE.CREATE.CRUMBS.probe",
          "$JS.API.CONSUMER.INFO.CRUMBS.probe",
          "$JS.API.CONSUMER.MSG.NEXT.CRUMBS.probe",
          "$JS.ACK.CRUMBS.probe.1.1.1.1.0",
          "$JS.FC.CRUMBS.probe.x",
          "_INBOX.anything",
          `replay.${H}.created.note.v1`,
          `evil.${H}.created.note.v1`,
        ],
      },
      {
        what: "extension",
        creds: await mintCreds(stack, tokens.H, { kind: "extension", extension_id: "hostile" }),
        subjects: [
          `$JS.API.CONSUMER.CREATE.CRUMBS.crumbs-ext-${H}-hostile.crumbs.${H}.created.browser.action.v1`,
          `$JS.API.CONSUMER.INFO.CRUMBS.crumbs-ext-${H}-hostile`,
          `$JS.API.CONSUMER.MSG.NEXT.CRUMBS.crumbs-ext-${H}-hostile`,
          `$JS.ACK.CRUMBS.crumbs-ext-${H}-hostile.1.1.1.1.0`,
        ],
      },
    ];
    for (const { what, creds, subjects } of kinds) {
      const { nc } = await connectWith(stack, creds);
      track(nc);
      for (const subject of subjects) {
        for (const reply of targets) {
          const body = subject.includes("CONSUMER.CREATE") || subject.includes("DURABLE.CREATE") ? hugeCreate(`${what}-probe`) : "{}";
          nc.publish(subject, body, { reply });
        }
      }
      await nc.flush();
    }

    // Push consumers on the hostile owner's own streams, delivering wherever it likes.
    const agent = await connectWith(stack, kinds[0]!.creds);
    track(agent.nc);
    const jsm = await agent.nc.jetstreamManager();
    await agent.nc.jetstream().publish(`replay.${H}.created.note.v1`, JSON.stringify({ owner: V, title: "forged" }), { msgID: "forged" });
    const refused: string[] = [];
    for (const [i, deliver] of targets.entries()) {
      for (const stream of ["CRUMBS", "REPLAY"]) {
        await jsm.consumers
          .add(stream, { name: `push-${stream}-${i}`, ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All, deliver_subject: deliver })
          .catch((err: unknown) => refused.push(`${stream} -> ${deliver}: ${String(err)}`));
      }
    }
    // Only delivering onto a stream's own subjects is refused (a cycle); every other one exists, inside H's account.
    expect(refused.every((r) => /cycle/.test(r)), refused.join("\n")).toBe(true);
    // A stream of H's own that widens to the victim's subjects is a stream of H's account: it catches nothing of V's.
    // (crumbs.> is its CRUMBS stream's already, so a stream of its own cannot take crumbs.<V>.>.)
    await expect(jsm.streams.add({ name: "WIDE", subjects: [`crumbs.${V}.>`], max_bytes: 1024 * 1024 })).rejects.toThrow(/overlap/);
    const widened = await jsm.streams.add({ name: "WIDE", subjects: [`replay.${V}.>`, `crumbs-owner.>`], max_bytes: 1024 * 1024 });
    expect(widened.config.name).toBe("WIDE");

    // Everything the hostile owner set off has been answered once a JetStream request behind it has.
    for (const nc of conns) await nc.flush().catch(() => {});
    // Its own account is another matter (SECURITY.md, "NATS", residuals): answers aimed at crumbs.<H>.>
    // are stored in H's own CRUMBS stream, and a push consumer delivering into H's JetStream API can purge it.
    await jsm.streams.info("REPLAY");
    // A fresh event of the victim's still arrives, after all of the above.
    await put(tokens.V, "victim after the attack");
    await waitFor(() => victimLive.length === 1, { message: "the victim's live subscriber got its new event" });
    await waitFor(() => heardByMain.includes(`crumbs-owner.${V}.created.note.v1`), { message: "the relay's publish of it" });
    // What the victim's and the main account heard, before the test itself asks them anything.
    const victimHeard = [...heardByVictimAccount];
    const mainHeard = heardByMain.filter((s) => !s.startsWith("_INBOX."));

    // Nothing of the hostile owner's reached the victim's account: its streams grew by the one event, no eviction.
    const victimAfter = await victimStreams();
    expect(victimAfter[0]).toMatchObject({ messages: victimBefore[0]!.messages + 1, first_seq: victimBefore[0]!.first_seq });
    expect(victimAfter[1]).toMatchObject({ messages: victimBefore[1]!.messages, first_seq: victimBefore[1]!.first_seq });
    expect(victimLive).toEqual([`crumbs.${V}.created.note.v1`]);
    expect(victimHeard).toEqual([`crumbs.${V}.created.note.v1`]);
    expect((await (await victimAdmin.jetstreamManager()).streams.info("WIDE").catch(() => undefined))).toBeUndefined();
    // Nor the main stream: one more event (the victim's), the same first one.
    const mainAfter = (await mainStream()).state;
    expect(mainAfter).toMatchObject({ messages: mainBefore.messages + 1, first_seq: mainBefore.first_seq });
    // The CRUMBS account heard the relay's publish of that event and its owner-feed copy, and nothing else.
    expect(mainHeard).toEqual([`crumbs.${V}.created.note.v1`, `crumbs-owner.${V}.created.note.v1`]);
    // The hostile owner's consumers live in its own account only.
    const mainConsumers = await (await stack.nats.nc.jetstreamManager()).consumers.list("CRUMBS").next();
    expect(mainConsumers.map((c) => c.name)).toEqual([]);
    const victimConsumers = await (await victimAdmin.jetstreamManager()).consumers.list("CRUMBS").next();
    expect(victimConsumers.map((c) => c.name)).toEqual([]);
  }, 120_000);
});
