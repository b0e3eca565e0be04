import { describe, expect, it } from "vitest";
import { ConfigError, loadRunnerConfig } from "./config.ts";

describe("loadRunnerConfig", () => {
  it("applies defaults", () => {
    const c = loadRunnerConfig({ CRUMBS_TOKEN: "t" });
    expect(c).toMatchObject({
      crumbsUrl: "http://127.0.0.1:8081",
      natsUrl: "nats://127.0.0.1:4222",
      maxSteps: 8,
    });
  });
  it("names the variable that is wrong", () => {
    expect(() => loadRunnerConfig({ CRUMBS_TOKEN: "t", NATS_URL: "http://x" })).toThrow(/NATS_URL/);
    try {
      loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_MAX_STEPS: "zero" });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variables).toEqual(["RUNNER_MAX_STEPS"]);
    }
  });
  it("treats empty values as unset", () => {
    expect(loadRunnerConfig({ CRUMBS_TOKEN: "" }).token).toBeUndefined();
    expect(loadRunnerConfig({ CRUMBS_TOKEN: "t", OPENAI_BASE_URL: "" }).openaiBaseUrl).toBeUndefined();
  });
});
