import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { assembleApi, type ApiStack } from "../src/assemble.ts";
import { apiKeys } from "../src/db/schema.ts";
import { startStack, type TestStack } from "./stack.ts";
import { silentLogger } from "@crumbs/telemetry";

// Two API processes' worth of stacks on one database: a key cached by the second must stop
// working there as soon as the first revokes it. The TTL is set far beyond the test's length,
// so only the NOTIFY can make that happen.
let first: TestStack;
let second: ApiStack;

beforeAll(async () => {
  first = await startStack({ CRUMBS_AUTH_CACHE_TTL_MS: "300000" });
  second = await assembleApi({ config: first.config, logger: silentLogger });
}, 60_000);
afterAll(async () => {
  await second?.close();
  await first?.dispose();
});

const get = (stack: ApiStack, token: string) =>
  stack.app.request("/v1/breadcrumbs?limit=1", { headers: { authorization: `Bearer ${token}` } });

async function newKey(owner: string) {
  const res = await first.call("/v1/keys", { method: "POST", json: { owner, scopes: ["read"] } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string };
}

describe("authentication cache", () => {
  it("a key seen once is answered from memory: a row changed behind the API's back is not read again", async () => {
    const key = await newKey("cache-1");
    expect((await get(second, key.token)).status).toBe(200);
    // Revoking in SQL without the API's NOTIFY is what only a cache would miss: the proof that
    // the second request made no look-up. (Through the API, revocation reaches every replica: next test.)
    await first.database.db.update(apiKeys).set({ revoked_at: sql`now()` }).where(eq(apiKeys.id, key.id));
    expect((await get(second, key.token)).status).toBe(200);
  });

  it("a key revoked through one replica is refused by another within a second, despite a 5-minute TTL", async () => {
    const key = await newKey("cache-2");
    expect((await get(first, key.token)).status).toBe(200);
    expect((await get(second, key.token)).status).toBe(200);
    const started = Date.now();
    expect((await first.call(`/v1/keys/${key.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await get(first, key.token)).status).toBe(401);
    await waitFor(async () => (await get(second, key.token)).status === 401, { timeout: 5_000, message: "the second replica refuses the revoked key" });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("with the cache off (TTL 0) every request reads the key", async () => {
    const off = await assembleApi({ config: { ...first.config, authCacheTtlMs: 0 }, logger: silentLogger });
    try {
      const key = await newKey("cache-3");
      expect((await get(off, key.token)).status).toBe(200);
      await first.database.db.update(apiKeys).set({ revoked_at: sql`now()` }).where(eq(apiKeys.id, key.id));
      expect((await get(off, key.token)).status).toBe(401);
    } finally {
      await off.close();
    }
  });
});
