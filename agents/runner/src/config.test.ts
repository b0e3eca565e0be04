import { describe, expect, it } from "vitest";
import { ConfigError, loadRunnerConfig } from "./config.ts";

describe("loadRunnerConfig", () => {
  it("applies defaults", () => {
    const c = loadRunnerConfig({ CRUMBS_TOKEN: "t" });
    expect(c).toMatchObject({
      crumbsUrl: "http://127.0.0.1:8081",
      natsUrl: "nats://127.0.0.1:4222",
      maxSteps: 8,
      memoryTokens: 4_000,
      concurrency: 8,
    });
  });
  it("takes the triggers per agent at once from RUNNER_CONCURRENCY, 1 to 256", () => {
    expect(loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_CONCURRENCY: "1" }).concurrency).toBe(1);
    for (const bad of ["0", "257", "2.5"]) expect(() => loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_CONCURRENCY: bad }), bad).toThrow(/RUNNER_CONCURRENCY/);
  });
  it("takes a memory budget of 0 (memory off) and refuses a negative or fractional one", () => {
    expect(loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_MEMORY_TOKENS: "0" }).memoryTokens).toBe(0);
    expect(loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_MEMORY_TOKENS: "12000" }).memoryTokens).toBe(12_000);
    for (const bad of ["-1", "1.5", "lots"]) expect(() => loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_MEMORY_TOKENS: bad }), bad).toThrow(/RUNNER_MEMORY_TOKENS/);
  });
  it("names the variable that is wrong", () => {
    expect(() => loadRunnerConfig({ CRUMBS_TOKEN: "t", NATS_URL: "http://x" })).toThrow(/NATS_URL/);
    for (const bad of ["zero", "0", "-3", "2.5", "800"]) {
      let thrown: unknown;
      try {
        loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_MAX_STEPS: bad });
      } catch (err) {
        thrown = err;
      }
      expect(thrown, `RUNNER_MAX_STEPS=${bad}`).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).variables).toEqual(["RUNNER_MAX_STEPS"]);
      expect((thrown as ConfigError).message).toMatch(/RUNNER_MAX_STEPS/);
    }
    expect(loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_MAX_STEPS: "3" }).maxSteps).toBe(3);
  });
  it("bounds the runner's numbers from above, and takes NATS_URL by the same rule as the API", () => {
    expect(() => loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_MODEL_TIMEOUT_MS: "6000000" })).toThrow(/RUNNER_MODEL_TIMEOUT_MS/);
    expect(() => loadRunnerConfig({ CRUMBS_TOKEN: "t", RUNNER_ACK_WAIT_MS: "6000000" })).toThrow(/RUNNER_ACK_WAIT_MS/);
    expect(loadRunnerConfig({ CRUMBS_TOKEN: "t", NATS_URL: "nats://a:4222, nats://b:4222" }).natsUrl).toBe("nats://a:4222, nats://b:4222");
    expect(() => loadRunnerConfig({ CRUMBS_TOKEN: "t", NATS_URL: "nats://a:4222,http://b" })).toThrow(/"http:\/\/b" is not a NATS URL/);
  });
  it("treats empty values as unset", () => {
    expect(loadRunnerConfig({ CRUMBS_TOKEN: "" }).token).toBeUndefined();
    expect(loadRunnerConfig({ CRUMBS_TOKEN: "t", OPENAI_BASE_URL: "" }).openaiBaseUrl).toBeUndefined();
  });
});
