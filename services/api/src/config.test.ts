import { describe, expect, it } from "vitest";
import { loadApiConfig } from "./config.ts";
import { ConfigError } from "./errors.ts";

describe("loadApiConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadApiConfig({});
    expect(c.port).toBe(8081);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.bodyLimitBytes).toBe(1024 * 1024);
    expect(c.ssePingMs).toBe(15_000);
  });

  it("names the variable that is wrong", () => {
    expect(() => loadApiConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadApiConfig({ PORT: "eighty" })).toThrow(/^PORT:/);
    expect(() => loadApiConfig({ DATABASE_URL: "mysql://x" })).toThrow(/^DATABASE_URL:/);
    expect(() => loadApiConfig({ NATS_URL: "localhost" })).toThrow(/^NATS_URL:/);
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
