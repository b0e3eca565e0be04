import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadApiConfig } from "./config.ts";
import { createNatsTrust } from "./nats-auth/index.ts";
import { ConfigError } from "./errors.ts";
import { DEFAULT_PG_POOL } from "./db/postgres/pool-size.ts";

describe("loadApiConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadApiConfig({});
    expect(c.port).toBe(8081);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.bodyLimitBytes).toBe(1024 * 1024);
    expect(c.ssePingMs).toBe(15_000);
    expect(c.pgPool).toBe(DEFAULT_PG_POOL);
  });

  it("names the variable that is wrong", () => {
    expect(() => loadApiConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadApiConfig({ PORT: "eighty" })).toThrow(/^PORT:/);
    expect(() => loadApiConfig({ DATABASE_URL: "mysql://x" })).toThrow(/^DATABASE_URL:/);
    expect(() => loadApiConfig({ NATS_URL: "localhost" })).toThrow(/^NATS_URL:/);
    // A cluster's servers, comma-separated: each one is checked, as the runner checks them.
    expect(loadApiConfig({ NATS_URL: "nats://a:4222,nats://b:4222" }).natsUrl).toBe("nats://a:4222,nats://b:4222");
    expect(() => loadApiConfig({ NATS_URL: "nats://a:4222,b:4222" })).toThrow(/"b:4222" is not a NATS URL/);
  });

  it("reports every wrong variable at once, one line each", () => {
    let thrown: unknown;
    try {
      loadApiConfig({ PORT: "eighty", NATS_URL: "localhost" });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).variables.sort()).toEqual(["NATS_URL", "PORT"]);
    expect((thrown as ConfigError).message.split("\n")).toHaveLength(2);
  });

  it("bounds growth by default and refuses numbers outside their documented range", () => {
    const c = loadApiConfig({});
    expect(c.streamLimits).toEqual({ maxAgeSeconds: 7 * 86_400, maxBytes: 1024 ** 3 });
    expect(c.idempotencyTtlSeconds).toBe(86_400);
    expect(c.sseMaxPerOwner).toBe(16);
    expect(c.pageMaxBytes).toBe(4 * 1024 * 1024);
    expect(c.ownerReads).toEqual({ reads: 2, bytes: 8 * 1024 * 1024 });
    expect(c.authFailRateLimit).toEqual({ perSecond: 5, burst: 20 });
    expect(loadApiConfig({ CRUMBS_AUTH_FAIL_RATE_LIMIT: "off" }).authFailRateLimit).toBeUndefined();
    for (const [name, value] of [
      ["CRUMBS_STREAM_MAX_AGE_SECONDS", "59"],
      ["CRUMBS_STREAM_MAX_BYTES", "1e400"],
      ["CRUMBS_IDEMPOTENCY_TTL_SECONDS", "8.9e15"],
      ["CRUMBS_SSE_MAX_PER_OWNER", "0"],
      ["CRUMBS_BODY_LIMIT", String(2 ** 40)],
      ["CRUMBS_SSE_PING_MS", "1.5"],
      ["CRUMBS_PG_POOL", "0"],
    ]) {
      expect(() => loadApiConfig({ [name!]: value }), name).toThrow(new RegExp(`^${name}:`));
    }
  });

  it("reads the contract variables", () => {
    const c = loadApiConfig({
      DATABASE_URL: "postgres://u@h/db",
      NATS_URL: "nats://127.0.0.1:4222",
      PORT: "0",
      CRUMBS_TOKEN: "dev-token-123",
    });
    expect(c).toMatchObject({ databaseUrl: "postgres://u@h/db", port: 0, token: "dev-token-123" });
  });
});

describe("CRUMBS_NATS_ACCOUNT_SEED_FILE", () => {
  const dir = mkdtempSync(join(tmpdir(), "crumbs-seed-"));
  const seed = createNatsTrust().accountSeed;
  const file = join(dir, "account.seed");
  writeFileSync(file, `${seed}\n`, { mode: 0o600 });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the account seed from a file, as nats-init writes it", () => {
    expect(loadApiConfig({ CRUMBS_NATS_ACCOUNT_SEED_FILE: file }).auth?.natsAccountSeed).toBe(seed);
    expect(loadApiConfig({ CRUMBS_NATS_ACCOUNT_SEED: seed }).auth?.natsAccountSeed).toBe(seed);
  });

  it("names the variable when the file is missing, holds no account seed, or both are set", () => {
    expect(() => loadApiConfig({ CRUMBS_NATS_ACCOUNT_SEED_FILE: join(dir, "nope") })).toThrow(
      /^CRUMBS_NATS_ACCOUNT_SEED_FILE: cannot read .*ENOENT/,
    );
    const bad = join(dir, "bad.seed");
    writeFileSync(bad, "SUAxxx\n");
    expect(() => loadApiConfig({ CRUMBS_NATS_ACCOUNT_SEED_FILE: bad })).toThrow(/must hold a NATS account seed/);
    expect(() => loadApiConfig({ CRUMBS_NATS_ACCOUNT_SEED_FILE: file, CRUMBS_NATS_ACCOUNT_SEED: seed })).toThrow(/not both/);
  });
});
