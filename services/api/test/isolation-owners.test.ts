import { AckPolicy, connect, DeliverPolicy, jwtAuthenticator, type NatsConnection, type NatsError } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { cleanEnv, runCli } from "../../cli/test/run-cli.ts";
import { startLockedStack, TOKEN, type TestStack } from "./stack.ts";

/**
 * Owner A's token against owner B's data, through every door: HTTP reads and
 * writes, history, events, SSE, the CLI's replay, key management, and NATS
 * with the credentials the API mints, on a nats-server that is not open.
 */
let stack: TestStack;
let url: string;
const tokens = { A: "", B: "", adminA: "" };
const conns: NatsConnection[] = [];

const call = (path: string, token: string, init: RequestInit & { json?: unknown } = {}) => stack.call(path, { ...init, token });
const createKey = async (owner: string, scopes: string[]) => {
  const res = await call("/v1/keys", TOKEN, { method: "POST", json: { owner, scopes, name: `${owner}-${scopes.join("+")}` } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
};
const put = async (token: string, title: string) => {
  const res = await call("/v1/breadcrumbs", token, { method: "POST", json: { schema_name: "note.v1", title, context: { title } } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; owner: string; version: number };
};

beforeAll(async () => {
  stack = await startLockedStack({ CRUMBS_RELAY_POLL_MS: "100" }, { websocket: true });
  url = await stack.serve();
  tokens.A = await createKey("A", ["read", "write", "subscribe"]);
  tokens.B = await createKey("B", ["read", "write", "subscribe"]);
  tokens.adminA = await createKey("A", ["admin", "read"]);
}, 60_000);

afterAll(async () => {
  for (const nc of conns) await nc.close().catch(() => {});
  await stack?.dispose();
});

describe("owner isolation over HTTP", () => {
  it("A cannot get, list, read history of, patch or delete B's breadcrumb: 404, as if it did not exist", async () => {
    const b = await put(tokens.B, "B's secret");
    const missing = "0b7e4c1e-9a64-4a4b-8d0c-2b4f2b0f6a11";
    for (const id of [b.id, missing]) {
      expect((await call(`/v1/breadcrumbs/${id}`, tokens.A)).status).toBe(404);
      expect((await call(`/v1/breadcrumbs/${id}?view=llm`, tokens.A)).status).toBe(404);
      expect((await call(`/v1/breadcrumbs/${id}/history`, tokens.A)).status).toBe(404);
      const patch = await call(`/v1/breadcrumbs/${id}`, tokens.A, { method: "PATCH", headers: { "if-match": '"1"' }, json: { title: "pwned" } });
      expect(patch.status).toBe(404);
      expect((await call(`/v1/breadcrumbs/${id}`, tokens.A, { method: "DELETE" })).status).toBe(404);
    }
    const list = (await (await call("/v1/breadcrumbs?limit=500", tokens.A)).json()) as { items: { id: string }[] };
    expect(list.items.map((i) => i.id)).not.toContain(b.id);
    const byKey = (await (await call(`/v1/breadcrumbs?selector=${encodeURIComponent("{}")}`, tokens.A)).json()) as { items: unknown[] };
    expect(JSON.stringify(byKey)).not.toContain("B's secret");
    // B still sees it untouched.
    const own = (await (await call(`/v1/breadcrumbs/${b.id}`, tokens.B)).json()) as { title: string; version: number };
    expect(own).toMatchObject({ title: "B's secret", version: 1 });
  });

  it("A's key cannot be used to create a breadcrumb for B (the owner comes from the token)", async () => {
    const res = await call("/v1/breadcrumbs", tokens.A, { method: "POST", json: { schema_name: "note.v1", title: "x", context: {}, owner: "B" } });
    if (res.status === 201) expect(((await res.json()) as { owner: string }).owner).toBe("A");
    else expect(res.status).toBe(400);
  });

  it("the same key in A and in B names two independent breadcrumbs", async () => {
    const keyed = (token: string, title: string) =>
      call("/v1/breadcrumbs", token, { method: "POST", json: { schema_name: "note.v1", title, key: "shared-key", context: { title } } });
    const a = await keyed(tokens.A, "A keyed");
    const b = await keyed(tokens.B, "B keyed");
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    const aBody = (await a.json()) as { id: string; owner: string; key: string };
    const bBody = (await b.json()) as { id: string; owner: string; key: string };
    expect(aBody).toMatchObject({ owner: "A", key: "shared-key" });
    expect(bBody).toMatchObject({ owner: "B", key: "shared-key" });
    expect(bBody.id).not.toBe(aBody.id);
    // The key is taken within each owner only: a second create conflicts with the owner's own breadcrumb.
    const againA = await keyed(tokens.A, "A again");
    expect(againA.status).toBe(409);
    expect(await againA.json()).toMatchObject({ error: "key_conflict", details: { id: aBody.id, version: 1 } });
    const againB = await keyed(tokens.B, "B again");
    expect(await againB.json()).toMatchObject({ error: "key_conflict", details: { id: bBody.id, version: 1 } });
    // Deleting A's frees A's key and leaves B's in place.
    expect((await call(`/v1/breadcrumbs/${aBody.id}`, tokens.A, { method: "DELETE" })).status).toBe(204);
    expect((await keyed(tokens.A, "A re-keyed")).status).toBe(201);
    expect(await (await call(`/v1/breadcrumbs/${bBody.id}`, tokens.B)).json()).toMatchObject({ title: "B keyed", version: 1 });
  });

  it("the same Idempotency-Key in A and in B gives each owner its own result", async () => {
    const create = (token: string, title: string) =>
      call("/v1/breadcrumbs", token, {
        method: "POST",
        headers: { "idempotency-key": "shared-idem-key" },
        json: { schema_name: "note.v1", title, context: { title } },
      });
    const a1 = await create(tokens.A, "same request");
    expect(a1.status).toBe(201);
    const a = (await a1.json()) as { id: string; owner: string };
    // B's first use of the key is a new write for B, not A's stored answer.
    const b1 = await create(tokens.B, "same request");
    expect(b1.status).toBe(201);
    expect(b1.headers.get("idempotent-replayed")).toBeNull();
    const b = (await b1.json()) as { id: string; owner: string };
    expect(b.owner).toBe("B");
    expect(b.id).not.toBe(a.id);
    // Each owner's retry replays its own first answer.
    const a2 = await create(tokens.A, "same request");
    expect(a2.headers.get("idempotent-replayed")).toBe("true");
    expect(((await a2.json()) as { id: string }).id).toBe(a.id);
    const b2 = await create(tokens.B, "same request");
    expect(b2.headers.get("idempotent-replayed")).toBe("true");
    expect(((await b2.json()) as { id: string }).id).toBe(b.id);
    // A different request under the key is refused per owner, and B's key is untouched by A's misuse.
    const aOther = await create(tokens.A, "a different request");
    expect(aOther.status).toBe(422);
    expect(await aOther.json()).toMatchObject({ error: "idempotency_key_reused" });
    expect((await create(tokens.B, "same request")).status).toBe(201);
    expect((await call(`/v1/breadcrumbs/${a.id}`, tokens.B)).status).toBe(404);
    const listB = (await (await call("/v1/breadcrumbs?schema_name=note.v1&limit=500", tokens.B)).json()) as { items: { title: string }[] };
    expect(listB.items.filter((i) => i.title === "same request")).toHaveLength(1);
  });

  it("/v1/events for A holds only A's events", async () => {
    await put(tokens.A, "A one");
    await put(tokens.B, "B two");
    const page = (await (await call("/v1/events?after=0&limit=1000", tokens.A)).json()) as { items: { owner: string }[] };
    expect(page.items.length).toBeGreaterThan(0);
    expect(new Set(page.items.map((e) => e.owner))).toEqual(new Set(["A"]));
  });

  it("A's SSE stream never carries B's events, from the start of history and live", async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${url}/v1/events/stream?after=0`, { headers: { authorization: `Bearer ${tokens.A}` }, signal: ctrl.signal });
    expect(res.status).toBe(200);
    let text = "";
    const reader = res.body!.getReader();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    })();
    await put(tokens.B, "B live");
    const a = await put(tokens.A, "A live");
    await waitFor(() => text.includes(a.id), { timeout: 10_000 });
    ctrl.abort();
    const owners = [...text.matchAll(/"owner":"([^"]+)"/g)].map((m) => m[1]);
    expect(owners.length).toBeGreaterThan(1);
    expect(new Set(owners)).toEqual(new Set(["A"]));
    expect(text).not.toContain("B live");
  });

  it("crumbs replay with A's token prints only A's events", async () => {
    const replay = await runCli(["replay", "--json", "--after", "0"], { env: cleanEnv({ CRUMBS_URL: url, CRUMBS_TOKEN: tokens.A }) });
    expect(replay.code, replay.stderr).toBe(0);
    const events = replay.stdout.trim().split("\n").map((l) => JSON.parse(l) as { owner: string; title: string });
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((e) => e.owner === "A")).toBe(true);
  });

  it("A's admin key manages only A's keys and cannot grant more than it holds", async () => {
    const forB = await call("/v1/keys", tokens.adminA, { method: "POST", json: { owner: "B", scopes: ["read"] } });
    expect(forB.status).toBe(403);
    const escalate = await call("/v1/keys", tokens.adminA, { method: "POST", json: { scopes: ["write"] } });
    expect(escalate.status).toBe(403);
    const own = await call("/v1/keys", tokens.adminA, { method: "POST", json: { scopes: ["read"] } });
    expect(own.status).toBe(201);
    expect(((await own.json()) as { owner: string }).owner).toBe("A");
    expect((await call("/v1/keys?owner=B", tokens.adminA)).status).toBe(403);
    const listed = (await (await call("/v1/keys", tokens.adminA)).json()) as { items: { id: string; owner: string }[] };
    expect(new Set(listed.items.map((k) => k.owner))).toEqual(new Set(["A"]));
    // B's key ids are "not found" to A, so A can neither revoke nor probe them.
    const all = (await (await call("/v1/keys?owner=B", TOKEN)).json()) as { items: { id: string }[] };
    const bKey = all.items[0]!.id;
    expect((await call(`/v1/keys/${bKey}`, tokens.adminA, { method: "DELETE" })).status).toBe(404);
    expect((await call("/v1/breadcrumbs", tokens.B)).status).toBe(200);
    // A plain (non-admin) key may not touch keys at all.
    expect((await call("/v1/keys", tokens.A)).status).toBe(403);
  });
});

async function natsAs(token: string, kind: "agent" | "extension" = "agent") {
  const json = kind === "extension" ? { kind, extension_id: "isolationext" } : { kind };
  const res = await call("/v1/nats/credentials", token, { method: "POST", json });
  expect(res.status).toBe(200);
  const creds = (await res.json()) as { jwt: string; seed: string; owner: string };
  const nc = await connect({ servers: stack.natsServer.url, authenticator: jwtAuthenticator(creds.jwt, new TextEncoder().encode(creds.seed)) });
  conns.push(nc);
  const errors: string[] = [];
  void (async () => {
    for await (const s of nc.status()) if (s.type === "error") errors.push(String(s.data));
  })();
  return { nc, creds, errors };
}

/** Subscribes and reports either the subjects received or the server's refusal. */
function trySubscribe(nc: NatsConnection, subject: string) {
  const got: string[] = [];
  let refused: string | undefined;
  nc.subscribe(subject, {
    callback: (err: NatsError | null, msg) => {
      if (err) refused = err.message;
      else got.push(msg.subject);
    },
  });
  return { got, refused: () => refused };
}

describe("owner isolation over NATS (credentials minted by the API, locked server)", () => {
  it("A's credentials receive A's events, are refused crumbs.B.> and crumbs.>, and their JetStream and inbox are A's account's only", async () => {
    const { nc, creds } = await natsAs(tokens.A);
    expect(creds.owner).toBe("A");
    const own = trySubscribe(nc, "crumbs.A.>");
    const other = trySubscribe(nc, "crumbs.B.>");
    const all = trySubscribe(nc, "crumbs.>");
    // Allowed, because it is A's account's own inbox: B's and the API's replies travel in theirs.
    const inbox = trySubscribe(nc, "_INBOX.>");
    await nc.flush();
    await waitFor(() => other.refused() && all.refused(), { timeout: 5_000 });
    expect(other.refused()).toMatch(/Permissions Violation/);
    expect(all.refused()).toMatch(/Permissions Violation/);
    const b = await put(tokens.B, "B on the bus");
    const a = await put(tokens.A, "A on the bus");
    await waitFor(() => own.got.some((s) => s.startsWith("crumbs.A.created.")), { timeout: 10_000 });
    expect(own.got.every((s) => s.startsWith("crumbs.A."))).toBe(true);
    expect(a.owner).toBe("A");
    expect(b.owner).toBe("B");
    // A consumer on "the" CRUMBS stream is one on A's account's stream, which holds A's events only.
    const jsm = await nc.jetstreamManager();
    const streams = (await jsm.streams.list().next()).map((i) => [i.config.name, i.config.subjects]);
    expect(streams.sort()).toEqual([["CRUMBS", ["crumbs.>"]], ["REPLAY", ["replay.A.>"]]]);
    const consumer = await jsm.consumers.add("CRUMBS", { name: "everything", filter_subject: "crumbs.>", ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All });
    expect(consumer.num_pending).toBeGreaterThan(0);
    const seen = await nc.jetstream().consumers.get("CRUMBS", "everything").then((c) => c.fetch({ max_messages: 1000, expires: 2_000 }));
    const owners: string[] = [];
    for await (const m of seen) owners.push((m.json() as { owner: string }).owner);
    expect(owners.length).toBe(consumer.num_pending);
    expect(new Set(owners)).toEqual(new Set(["A"]));
    // B's JetStream traffic never reached A's inbox subscription (which saw A's own replies).
    await nc.flush();
    const mine = inbox.got.length;
    await (await natsAs(tokens.B)).nc.jetstreamManager().then((m) => m.streams.info("CRUMBS"));
    await nc.flush();
    expect(inbox.got.length).toBe(mine);
  });

  it("A's credentials cannot publish, not even on A's own subjects (writes go through the API)", async () => {
    const { nc, errors } = await natsAs(tokens.A);
    // The API's own connection sees every owner's subjects: nothing forged may reach it.
    const seen: string[] = [];
    const watch = stack.nats.nc.subscribe("crumbs.>", { callback: (_e, m) => seen.push(m.string()) });
    await stack.nats.nc.flush();
    nc.publish("crumbs.A.created.note.v1", "forged");
    nc.publish("crumbs.B.created.note.v1", "forged");
    await nc.flush();
    await waitFor(() => errors.includes("PERMISSIONS_VIOLATION"), { timeout: 5_000 });
    await stack.nats.nc.flush();
    watch.unsubscribe();
    expect(seen).not.toContain("forged");
  });

  it("extension credentials are limited to the owner's action and chat-answer subjects", async () => {
    const { nc } = await natsAs(tokens.A, "extension");
    const actions = trySubscribe(nc, "crumbs.A.*.browser.action.v1");
    const everything = trySubscribe(nc, "crumbs.A.>");
    const bActions = trySubscribe(nc, "crumbs.B.*.browser.action.v1");
    await nc.flush();
    await waitFor(() => everything.refused() && bActions.refused(), { timeout: 5_000 });
    expect(actions.refused()).toBeUndefined();
  });

  it("a key without the subscribe scope gets no NATS credentials", async () => {
    const res = await call("/v1/nats/credentials", tokens.adminA, { method: "POST", json: {} });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { details: { scope: string } }).details.scope).toBe("subscribe");
  });
});
