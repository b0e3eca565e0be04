import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../src/http/auth.ts";
import { apiKeys } from "../src/db/schema.ts";
import { cleanEnv, runCli } from "../../cli/test/run-cli.ts";
import { startStack, TOKEN, type TestStack } from "./stack.ts";

let stack: TestStack;
let url: string;

// Burst 10 at 2/s: each test below stays under 10 requests per key, the rate-limit test goes over.
beforeAll(async () => {
  stack = await startStack({ CRUMBS_RATE_LIMIT: "2:10" });
  url = await stack.serve();
}, 60_000);
afterAll(async () => stack?.dispose());

type Key = { id: string; owner: string; token?: string; scopes: string[]; expires_at: string | null };
const createKey = async (body: Record<string, unknown>) => {
  const res = await stack.call("/v1/keys", { method: "POST", json: body });
  expect(res.status).toBe(201);
  return (await res.json()) as Key & { token: string };
};
const note = { schema_name: "note.v1", title: "n", context: {} };

const crumbs = (args: string[], token = TOKEN) => runCli(args, { env: cleanEnv({ CRUMBS_URL: url, CRUMBS_TOKEN: token }) });

describe("API keys", () => {
  it("a token is shown once, stored only as its sha256, and works for its owner", async () => {
    const key = await createKey({ owner: "team-1", scopes: ["read", "write"], name: "ci" });
    expect(key.token).toMatch(/^crumbs_[A-Za-z0-9_-]{43}$/);
    const [row] = await stack.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.token_hash).toBe(hashToken(key.token));
    expect(JSON.stringify(row)).not.toContain(key.token);
    const listed = await (await stack.call("/v1/keys?owner=team-1")).text();
    expect(listed).toContain(key.id);
    expect(listed).not.toContain(key.token);
    expect(listed).not.toContain(hashToken(key.token));
    const created = await stack.call("/v1/breadcrumbs", { method: "POST", json: note, token: key.token });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ owner: "team-1", created_by: "key:ci" });
  });

  it("a revoked key and an expired key are 401", async () => {
    const revoked = await createKey({ owner: "team-2", scopes: ["read"] });
    expect((await stack.call("/v1/breadcrumbs", { token: revoked.token })).status).toBe(200);
    expect((await stack.call(`/v1/keys/${revoked.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await stack.call("/v1/breadcrumbs", { token: revoked.token })).status).toBe(401);

    const expiring = await createKey({ owner: "team-2", scopes: ["read"], expires_in: "1h" });
    expect(Date.parse(expiring.expires_at ?? "") - Date.now()).toBeGreaterThan(3_500_000);
    // Moved into the past before its first use: a key the API has cached is trusted until the
    // cache entry ends, which never outlives the key's own expires_at (keys/principal-cache.ts).
    await stack.database.db.update(apiKeys).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(apiKeys.id, expiring.id));
    expect((await stack.call("/v1/breadcrumbs", { token: expiring.token })).status).toBe(401);
  });

  it("a key never creates a key that outlives it: the new key's expiry is clamped to its creator's", async () => {
    const parent = await createKey({ owner: "team-5", scopes: ["read", "admin"], expires_in: "1h" });
    const byParent = async (body: Record<string, unknown>) => {
      const res = await stack.call("/v1/keys", { method: "POST", json: { scopes: ["read"], ...body }, token: parent.token });
      expect(res.status).toBe(201);
      return (await res.json()) as Key;
    };
    // Asked for longer, or for no expiry at all: it ends when its creator does.
    expect((await byParent({ expires_in: "30d" })).expires_at).toBe(parent.expires_at);
    expect((await byParent({})).expires_at).toBe(parent.expires_at);
    // Asked for less: as asked.
    const short = await byParent({ expires_in: "10m" });
    expect(Date.parse(short.expires_at!)).toBeLessThan(Date.parse(parent.expires_at!));
    // The admin token never expires, so a key it creates has the expiry asked for, or none.
    expect((await createKey({ owner: "team-5", scopes: ["read"] })).expires_at).toBeNull();
  });

  it("revoking a key revokes the keys it created, and theirs; other keys keep working", async () => {
    // A root admin key (owner default) creates a key for team-6, which creates another.
    const root = await createKey({ owner: "default", scopes: ["read", "admin"] });
    const make = async (token: string, body: Record<string, unknown>) => {
      const res = await stack.call("/v1/keys", { method: "POST", json: body, token });
      expect(res.status).toBe(201);
      return (await res.json()) as Key & { token: string };
    };
    const child = await make(root.token, { owner: "team-6", scopes: ["read", "admin"] });
    const grandchild = await make(child.token, { scopes: ["read"] });
    const sibling = await createKey({ owner: "team-6", scopes: ["read"] });
    for (const k of [root, child, grandchild, sibling]) expect((await stack.call("/v1/breadcrumbs", { token: k.token })).status).toBe(200);

    expect((await stack.call(`/v1/keys/${root.id}`, { method: "DELETE" })).status).toBe(204);
    for (const k of [root, child, grandchild]) {
      expect((await stack.call("/v1/breadcrumbs", { token: k.token })).status).toBe(401);
      expect(((await (await stack.call(`/v1/keys/${k.id}`)).json()) as { revoked_at: string | null }).revoked_at).not.toBeNull();
    }
    expect((await stack.call("/v1/breadcrumbs", { token: sibling.token })).status).toBe(200);
  });

  it("bad key requests are 400: unknown scope, owner that is not a subject token, bad duration", async () => {
    for (const body of [
      { owner: "x", scopes: ["root"] },
      { owner: "a.b", scopes: ["read"] },
      { owner: "a>", scopes: ["read"] },
      { owner: "x", scopes: [] },
      { owner: "x", scopes: ["read"], expires_in: "1y" },
    ]) {
      const res = await stack.call("/v1/keys", { method: "POST", json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("scopes against the real stack", () => {
  it("read-only: reads pass; writes, SSE and NATS credentials are 403 naming the scope", async () => {
    const writer = await createKey({ owner: "team-3", scopes: ["write"] });
    const reader = await createKey({ owner: "team-3", scopes: ["read"] });
    const b = (await (await stack.call("/v1/breadcrumbs", { method: "POST", json: note, token: writer.token })).json()) as { id: string };
    expect((await stack.call(`/v1/breadcrumbs/${b.id}`, { token: reader.token })).status).toBe(200);
    expect((await stack.call(`/v1/breadcrumbs/${b.id}/history`, { token: reader.token })).status).toBe(200);
    expect((await stack.call("/v1/events?after=0", { token: reader.token })).status).toBe(200);
    const refusals: [string, RequestInit & { json?: unknown }, string][] = [
      ["/v1/breadcrumbs", { method: "POST", json: note }, "write"],
      [`/v1/breadcrumbs/${b.id}`, { method: "DELETE" }, "write"],
      ["/v1/events/stream", {}, "subscribe"],
      ["/v1/nats/credentials", { method: "POST", json: {} }, "subscribe"],
      ["/v1/keys", {}, "admin"],
    ];
    for (const [path, init, scope] of refusals) {
      const res = await stack.call(path, { ...init, token: reader.token });
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden", details: { scope } });
    }
    // The write-only key cannot read what it wrote.
    expect((await stack.call(`/v1/breadcrumbs/${b.id}`, { token: writer.token })).status).toBe(403);
  });

  it("NATS credentials need an account seed: without one the API says so (503)", async () => {
    const sub = await createKey({ owner: "team-6", scopes: ["subscribe"] });
    const res = await stack.call("/v1/nats/credentials", { method: "POST", token: sub.token });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toMatch(/CRUMBS_NATS_ACCOUNT_SEED/);
  });
});

describe("rate limit", () => {
  it("past the burst an owner gets 429 rate_limited with Retry-After, on every key of it; other owners are unaffected", async () => {
    const busy = await createKey({ owner: "team-4", scopes: ["read"] });
    // A second key of the same owner draws from the same bucket: minting keys buys no rate.
    const sameOwner = await createKey({ owner: "team-4", scopes: ["read"] });
    const calm = await createKey({ owner: "team-5", scopes: ["read"] });
    const statuses: number[] = [];
    let limited: Response | undefined;
    const first = await stack.call("/v1/breadcrumbs?limit=1", { token: busy.token });
    const shared = await stack.call("/v1/breadcrumbs?limit=1", { token: sameOwner.token });
    // A bucket of its own would have 9 of its 10 left; the owner's has given out two.
    expect([first.headers.get("ratelimit-remaining"), shared.headers.get("ratelimit-remaining")]).toEqual(["9", "8"]);
    for (let i = 0; i < 13; i++) {
      const res = await stack.call("/v1/breadcrumbs?limit=1", { token: busy.token });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(limited?.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await limited?.json()).toMatchObject({ error: "rate_limited" });
    expect((await stack.call("/v1/breadcrumbs?limit=1", { token: calm.token })).status).toBe(200);
    // CRUMBS_TOKEN (the operator's) is not limited unless CRUMBS_ADMIN_RATE_LIMIT says so.
    for (let i = 0; i < 15; i++) expect((await stack.call("/v1/breadcrumbs?limit=1")).status).toBe(200);
  });
});

describe("crumbs keys (CLI)", () => {
  it("create prints the token once on stdout, list shows the key without it, revoke makes it 401", async () => {
    const created = await crumbs(["keys", "create", "--owner", "cli-team", "--scopes", "read,subscribe", "--expires", "30d", "--name", "laptop"]);
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^crumbs_/);
    expect((await stack.call("/v1/breadcrumbs", { token })).status).toBe(200);
    const listed = await crumbs(["keys", "list", "--owner", "cli-team", "--json"]);
    expect(listed.code).toBe(0);
    const keys = JSON.parse(listed.stdout) as Key[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ owner: "cli-team", scopes: ["read", "subscribe"], name: "laptop" });
    expect(listed.stdout).not.toContain(token);
    const revoked = await crumbs(["keys", "revoke", keys[0]!.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await stack.call("/v1/breadcrumbs", { token })).status).toBe(401);
    // The revoked key's owner cannot mint keys (no admin scope): exit 1 with the API's code.
    const refused = await crumbs(["keys", "create", "--owner", "x", "--scopes", "read"], token);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/unauthorized/);
  });
});
