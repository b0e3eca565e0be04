import { AckPolicy, DeliverPolicy, type JsMsg, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { cleanEnv, runCli } from "../../cli/test/run-cli.ts";
import { connectWith, createOwnerKey, mintCreds, putNote, type MintedCreds } from "./owner-nats.ts";
import { startLockedStack, type TestStack } from "./stack.ts";

/**
 * One NATS account per owner (SECURITY.md, "NATS"): an owner's own credentials hold durable
 * consumers on its account's CRUMBS stream, which carries exactly that owner's events under their
 * usual subjects and message ids; replays go to the owner's REPLAY stream; the credentials end
 * with the key that minted them.
 */
let stack: TestStack;
let url: string;
const conns: NatsConnection[] = [];

const createKey = (owner: string, extra: Record<string, unknown> = {}) => createOwnerKey(stack, owner, extra);
const put = (token: string, title: string) => putNote(stack, token, title);
const open = async (creds: MintedCreds, name?: string) => {
  const c = await connectWith(stack, creds, name ? { name } : {});
  conns.push(c.nc);
  return c;
};
const titleOf = (m: JsMsg) => (m.json() as { title: string }).title;

let A: { token: string; id: string };
let B: { token: string; id: string };

beforeAll(async () => {
  stack = await startLockedStack({ CRUMBS_RELAY_POLL_MS: "100" });
  url = await stack.serve();
  A = await createKey("A");
  B = await createKey("B");
  await mintCreds(stack, B.token); // B's account exists, with events of its own
}, 60_000);

afterAll(async () => {
  for (const nc of conns) await nc.close().catch(() => {});
  await stack?.dispose();
});

describe("an owner's durable consumer with its own credentials", () => {
  it("creates a durable, pulls, acks and naks; two processes share it; a restart misses nothing; B's events never appear", async () => {
    const creds = await mintCreds(stack, A.token);
    expect(creds.servers).toEqual([stack.natsServer.url]);
    const one = await open(creds, "agent-1");
    const jsm = await one.nc.jetstreamManager();
    await jsm.consumers.add("CRUMBS", {
      durable_name: "echo",
      // The runner's kind of filter, written for the main stream, works unchanged.
      filter_subject: "crumbs.*.created.note.v1",
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      ack_wait: 30_000_000_000,
    });
    const written: string[] = [];
    for (let i = 0; i < 6; i++) {
      await put(B.token, `B ${i}`);
      written.push((await put(A.token, `A ${i}`)).id);
    }
    const two = await open(await mintCreds(stack, A.token), "agent-2");
    const got: { by: string; title: string; subject: string; msgId: string | undefined }[] = [];
    const pull = async (nc: NatsConnection, by: string, max: number) => {
      const c = await nc.jetstream().consumers.get("CRUMBS", "echo");
      const batch = await c.fetch({ max_messages: max, expires: 3_000 });
      for await (const m of batch) {
        got.push({ by, title: titleOf(m), subject: m.subject, msgId: m.headers?.get("Nats-Msg-Id") });
        m.ack();
      }
    };
    await Promise.all([pull(one.nc, "1", 3), pull(two.nc, "2", 3)]);
    // Shared: each event went to one process, and both got some.
    expect(got.map((g) => g.title).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `A ${i}`));
    expect(new Set(got.map((g) => g.by))).toEqual(new Set(["1", "2"]));
    // The usual subjects and message ids: code written against the runner's stream works unchanged.
    expect(got.every((g) => g.subject === "crumbs.A.created.note.v1")).toBe(true);
    expect(got.map((g) => g.msgId).sort()).toEqual(written.map((id) => `${id}:1:created`).sort());

    // A nak comes back to the durable; then both processes stop, and what is written meanwhile waits.
    await put(A.token, "A nak");
    const c1 = await one.nc.jetstream().consumers.get("CRUMBS", "echo");
    const naked = await c1.next({ expires: 3_000 });
    expect(titleOf(naked!)).toBe("A nak");
    naked!.nak();
    await one.nc.flush();
    await Promise.all([one.nc.close(), two.nc.close()]);
    for (let i = 0; i < 3; i++) {
      await put(B.token, `B down ${i}`);
      await put(A.token, `A down ${i}`);
    }
    const back = await open(await mintCreds(stack, A.token), "agent-restarted");
    const after: string[] = [];
    const c = await back.nc.jetstream().consumers.get("CRUMBS", "echo");
    for await (const m of await c.fetch({ max_messages: 10, expires: 3_000 })) {
      after.push(titleOf(m));
      m.ack();
    }
    expect(after.sort()).toEqual(["A down 0", "A down 1", "A down 2", "A nak"]);
    const info = await (await back.nc.jetstreamManager()).consumers.info("CRUMBS", "echo");
    expect(info.num_pending + info.num_ack_pending).toBe(0);
  });

  it("the owner's stream holds exactly its own events, in seq order, after a NATS restart too", async () => {
    const creds = await mintCreds(stack, A.token);
    await put(A.token, "before restart");
    await stack.natsServer.restart();
    // Written while the API reconnects: the outbox publishes them when NATS is back.
    await put(B.token, "B after restart");
    const last = await put(A.token, "after restart");
    const { nc } = await open(creds);
    const jsm = await nc.jetstreamManager();
    await waitFor(async () => {
      const m = await jsm.streams.getMessage("CRUMBS", { last_by_subj: "crumbs.A.created.note.v1" }).catch(() => undefined);
      return (m?.json() as { id?: string } | undefined)?.id === last.id;
    }, { timeout: 20_000, message: "A's event written after the restart reached A's stream" });
    const events = await fetchAll(nc);
    const seqs = events.map((e) => e.seq);
    expect(events.every((e) => e.owner === "A")).toBe(true);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    // Every event of A's (Postgres has the record) is in A's stream, none twice.
    const page = (await (await stack.call("/v1/events?after=0&limit=1000", { token: A.token })).json()) as { items: { seq: number }[] };
    expect(seqs).toEqual(page.items.map((e) => e.seq));
  }, 60_000);
});

async function fetchAll(nc: NatsConnection) {
  const jsm = await nc.jetstreamManager();
  await jsm.consumers.add("CRUMBS", { name: `all-${Date.now()}`, ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All, inactive_threshold: 30_000_000_000 });
  const names = await jsm.consumers.list("CRUMBS").next();
  const name = names.map((c) => c.name).filter((n) => n.startsWith("all-")).sort().at(-1)!;
  const pending = (await jsm.consumers.info("CRUMBS", name)).num_pending;
  const out: { seq: number; owner: string }[] = [];
  const c = await nc.jetstream().consumers.get("CRUMBS", name);
  for await (const m of await c.fetch({ max_messages: pending, expires: 3_000 })) out.push(m.json());
  return out;
}

describe("replays on the owner's own subjects", () => {
  it("are stored in the owner's REPLAY stream, deduplicated by message id; crumbs.> and the CRUMBS stream's config are refused", async () => {
    const creds = await mintCreds(stack, A.token);
    const { nc, errors } = await open(creds);
    const js = nc.jetstream();
    const first = await js.publish("replay.A.created.note.v1", JSON.stringify({ title: "replayed" }), { msgID: "r1:1:created" });
    const again = await js.publish("replay.A.created.note.v1", JSON.stringify({ title: "replayed" }), { msgID: "r1:1:created" });
    expect(first).toMatchObject({ stream: "REPLAY", duplicate: false });
    expect(again).toMatchObject({ stream: "REPLAY", seq: first.seq, duplicate: true });
    // An agent subscribes durably to the replays.
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.add("REPLAY", { durable_name: "replayer", ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All });
    const m = await (await js.consumers.get("REPLAY", "replayer")).next({ expires: 3_000 });
    expect(m?.subject).toBe("replay.A.created.note.v1");
    // Never on crumbs.>, never another owner's, never a change to the stream the API keeps.
    nc.publish("crumbs.A.created.note.v1", "forged");
    nc.publish("replay.B.created.note.v1", "forged");
    await nc.flush();
    await waitFor(() => errors.filter((e) => e === "PERMISSIONS_VIOLATION").length >= 2, { timeout: 5_000 });
    for (const call of ["DELETE", "PURGE", "UPDATE"]) {
      await expect(nc.request(`$JS.API.STREAM.${call}.CRUMBS`, "{}", { timeout: 1_000 })).rejects.toThrow();
    }
    const info = await jsm.streams.info("CRUMBS");
    expect(info.config.subjects).toEqual(["crumbs.>"]);
    expect(info.state.messages).toBeGreaterThan(0);
  });
});

describe("credentials end with the key that minted them", () => {
  it("never outlive the key's expiry", async () => {
    const short = await createKey("A", { expires_in: 600 });
    const creds = await mintCreds(stack, short.token, { kind: "agent", ttl_seconds: 3_600 });
    expect(Date.parse(creds.expires_at!)).toBeLessThanOrEqual(Date.parse(short.expires_at!));
    expect(Date.parse(creds.expires_at!)).toBeGreaterThan(Date.now() + 500_000);
  });

  it("revoking the key disconnects its connected users and refuses them again; other keys of the owner keep working", async () => {
    const doomed = await createKey("A");
    const kept = await createKey("A");
    const doomedCreds = await mintCreds(stack, doomed.token);
    const agent = await open(doomedCreds);
    const ext = await open(await mintCreds(stack, doomed.token, { kind: "extension", extension_id: "revokeme" }));
    const other = await open(await mintCreds(stack, kept.token));
    const closed = Promise.all([agent.nc.closed(), ext.nc.closed()]);
    expect((await stack.call(`/v1/keys/${doomed.id}`, { method: "DELETE" })).status).toBe(204);
    await closed;
    expect(agent.errors).toContain("AUTHORIZATION_VIOLATION");
    // The same credentials are refused on a new connection, and the key mints no more.
    await expect(connectWith(stack, doomedCreds)).rejects.toThrow(/Authorization Violation/i);
    expect((await stack.call("/v1/nats/credentials", { token: doomed.token, method: "POST", json: {} })).status).toBe(401);
    // Another key of A, and what it minted, still work.
    expect(other.nc.isClosed()).toBe(false);
    expect((await (await other.nc.jetstreamManager()).streams.info("CRUMBS")).config.name).toBe("CRUMBS");
    await open(await mintCreds(stack, kept.token));
  });
});

describe("the CLI", () => {
  it("keys nats-creds prints a .creds file for the token's owner and its expiry; an extension's needs its id", async () => {
    const crumbs = (...args: string[]) => runCli(args, { env: cleanEnv({ CRUMBS_URL: url, CRUMBS_TOKEN: A.token }) });
    const agent = await crumbs("keys", "nats-creds", "--ttl", "120");
    expect(agent.code, agent.stderr).toBe(0);
    expect(agent.stdout).toMatch(/^-----BEGIN NATS USER JWT-----\n[\s\S]*-----BEGIN USER NKEY SEED-----/);
    const expires = Date.parse(/^expires (\S+)$/m.exec(agent.stderr)?.[1] ?? "");
    expect(expires - Date.now()).toBeGreaterThan(60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(120_000);
    expect((await crumbs("keys", "nats-creds", "--kind", "extension", "--extension-id", "abc")).code).toBe(0);
    const noId = await crumbs("keys", "nats-creds", "--kind", "extension");
    expect(noId.code).toBe(2);
    expect(noId.stderr).toMatch(/^crumbs keys: --kind extension needs --extension-id ID\n/);
  });
});
