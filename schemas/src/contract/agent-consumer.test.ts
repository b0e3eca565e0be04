import { describe, expect, it } from "vitest";
import { agentConsumerPrefix } from "./agent-consumer.ts";

describe("agentConsumerPrefix", () => {
  // Runners already created consumers under these names: a change would orphan them.
  it("is agent_<owner>_<agent_id>_ with characters a consumer name cannot hold replaced", () => {
    expect(agentConsumerPrefix("default", "page-assistant")).toBe("agent_default_page-assistant_");
    expect(agentConsumerPrefix("acme.eu", "a b*c")).toBe("agent_acme_eu_a_b_c_");
    expect(agentConsumerPrefix("o", "x".repeat(80))).toBe(`agent_o_${"x".repeat(64)}_`);
  });
});
