import { describe, expect, it } from "vitest";
import { agentNeedsPage, interestLabel } from "./page-interest.ts";

const def = (extra: Record<string, unknown>) => ({ def: { subscriptions: { selectors: [{ schema_name: "chat.message.v1" }] }, ...extra } }) as never;

describe("agentNeedsPage", () => {
  it("an agent that reads or is triggered by page context, or runs tasks, needs the page", () => {
    expect(agentNeedsPage(def({ context_selectors: [{ schema_name: "browser.page.context.v1" }] }))).toBe(true);
    expect(agentNeedsPage({ def: { subscriptions: { selectors: [{ schema_name: ["chat.message.v1", "browser.page.context.v1"] }] } } } as never)).toBe(true);
    expect(agentNeedsPage({ def: { subscriptions: { selectors: [{ any_tags: ["x"] }] } } } as never)).toBe(true);
    expect(agentNeedsPage(def({ skills: ["login"] }))).toBe(true);
  });
  it("an agent that never sees the page does not", () => {
    expect(agentNeedsPage(def({}))).toBe(false);
    expect(agentNeedsPage(def({ context_selectors: [{ schema_name: "agent.response.v1" }] }))).toBe(false);
  });
  it("labels count the agents", () => {
    expect(interestLabel(1)).toBe("runner: 1 agent");
    expect(interestLabel(3)).toBe("runner: 3 agents");
  });
});
