import { describe, expect, it } from "vitest";
import type { Principal } from "../http/auth.ts";
import { PrincipalCache } from "./principal-cache.ts";

const alice: Principal = { owner: "alice", scopes: ["read"], actor: "key:a" };

describe("PrincipalCache", () => {
  it("answers a seen key until the TTL passes, then forgets it", () => {
    let now = 1_000;
    const cache = new PrincipalCache({ ttlMs: 5_000, now: () => now });
    cache.set("h1", alice);
    now += 4_999;
    expect(cache.get("h1")).toEqual(alice);
    now += 1;
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("never outlives the key's own expiry", () => {
    let now = 0;
    const cache = new PrincipalCache({ ttlMs: 60_000, now: () => now });
    cache.set("h1", alice, new Date(2_000));
    now = 1_999;
    expect(cache.get("h1")).toEqual(alice);
    now = 2_000;
    expect(cache.get("h1")).toBeUndefined();
  });

  it("keeps at most maxEntries, dropping the least recently used", () => {
    const cache = new PrincipalCache({ ttlMs: 60_000, maxEntries: 2 });
    cache.set("a", alice);
    cache.set("b", alice);
    cache.get("a");
    cache.set("c", alice);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toEqual(alice);
    expect(cache.get("c")).toEqual(alice);
  });

  it("stores nothing when the TTL is 0 (caching off)", () => {
    const cache = new PrincipalCache({ ttlMs: 0 });
    cache.set("a", alice);
    expect(cache.get("a")).toBeUndefined();
  });

  it("clear drops every entry", () => {
    const cache = new PrincipalCache({ ttlMs: 60_000 });
    cache.set("a", alice);
    cache.clear();
    expect(cache.get("a")).toBeUndefined();
  });
});
