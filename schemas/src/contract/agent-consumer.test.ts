import { describe, expect, it } from "vitest";
import { agentConsumerPrefix, isAgentConsumer } from "./agent-consumer.ts";

describe("agentConsumerPrefix", () => {
  // Runners already created consumers under these names: a change would orphan them.
  it("is agent_<owner>_<agent_id>_ with characters a consumer name cannot hold replaced", () => {
    expect(agentConsumerPrefix("default", "page-assistant")).toBe("agent_default_page-assistant_");
    expect(agentConsumerPrefix("acme.eu", "a b*c")).toBe("agent_acme_eu_a_b_c_");
    expect(agentConsumerPrefix("o", "x".repeat(80))).toBe(`agent_o_${"x".repeat(64)}_`);
  });
});

describe("isAgentConsumer", () => {
  it("matches one agent of one owner exactly: not an agent whose id it prefixes, not an owner whose name has a `_`", () => {
    const mine = `${agentConsumerPrefix("o", "a")}0badc0de`;
    expect(isAgentConsumer(mine, "crumbs.o.*.chat.message.v1", "o", "a")).toBe(true);
    // Agent `a_b` of the same owner starts with agent `a`'s prefix.
    expect(isAgentConsumer(`${agentConsumerPrefix("o", "a_b")}0badc0de`, "crumbs.o.*.x.v1", "o", "a")).toBe(false);
    // Owner `o_x`'s agent `y` and owner `o`'s agent `x_y` share a name prefix; the filter's owner tells them apart.
    const other = `${agentConsumerPrefix("o_x", "y")}0badc0de`;
    expect(other).toBe(`${agentConsumerPrefix("o", "x_y")}0badc0de`);
    expect(isAgentConsumer(other, "crumbs.o_x.*.x.v1", "o", "x_y")).toBe(false);
    expect(isAgentConsumer(other, "crumbs.o_x.*.x.v1", "o_x", "y")).toBe(true);
    expect(isAgentConsumer(`${mine}0`, "crumbs.o.>", "o", "a")).toBe(false);
    expect(isAgentConsumer(mine, null, "o", "a")).toBe(false);
  });
});
