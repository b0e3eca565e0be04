import { describe, expect, it } from "vitest";
import { parseRetentionEnv } from "./policy.ts";

describe("retention policy", () => {
  it("bounds the living page breadcrumb by default", () => {
    expect(parseRetentionEnv(undefined).get("browser.page.context.v1")).toEqual({
      maxVersions: 1_000,
      maxAgeSeconds: 7 * 86_400,
    });
    expect(parseRetentionEnv("").get("chat.message.v1")).toBeUndefined();
  });

  it("reads durations and lets a schema replace or drop its default", () => {
    const p = parseRetentionEnv(
      JSON.stringify({ "browser.page.context.v1": { max_versions: 100 }, "chat.message.v1": { max_age: "12h" }, "x.v1": { max_age: 90 } }),
    );
    expect(p.get("browser.page.context.v1")).toEqual({ maxVersions: 100 });
    expect(p.get("chat.message.v1")).toEqual({ maxAgeSeconds: 43_200 });
    expect(p.get("x.v1")).toEqual({ maxAgeSeconds: 90 });
    expect(parseRetentionEnv(JSON.stringify({ "browser.page.context.v1": null })).size).toBe(0);
  });

  it("rejects what it cannot honour, naming it", () => {
    expect(() => parseRetentionEnv("{")).toThrow(/JSON/);
    expect(() => parseRetentionEnv(JSON.stringify({ "a.v1": { max_versions: 0 } }))).toThrow(/a\.v1\.max_versions/);
    expect(() => parseRetentionEnv(JSON.stringify({ "a.v1": { max_age: "7 weeks" } }))).toThrow(/duration/);
    expect(() => parseRetentionEnv(JSON.stringify({ "a.v1": { keep: 1 } }))).toThrow();
  });
});
