import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STREAM_NAME } from "@crumbs/schemas";
import { waitFor, waitForConsumerDrained } from "@crumbs/testkit";
import { type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { actionResult, chatMessage, listAll, pageContext, startStack, startStackRunner, waitForAgentDrained, type TestStack } from "./stack.ts";

const MAX_STEPS = 3;

// A model that never stops calling tools, and a browser that answers every action: the task
// must still end at the runner's step limit with one text answer, and no action after it.
describe("the runner's step limit", () => {
  let s: TestStack;
  let runner: Runner;

  beforeAll(async () => {
    s = await startStack();
    runner = await startStackRunner(s, {
      maxSteps: MAX_STEPS,
      logger: silentLogger,
    });
    await s.client.create({
      schema_name: "agent.def.v1",
      title: "looping agent",
      tags: [],
      context: {
        agent_id: "looper",
        model: "test-model",
        system_prompt: "act in the browser",
        subscriptions: { selectors: [{ schema_name: "chat.message.v1", any_tags: ["user:message"] }] },
        tools: ["browser_click"],
        capabilities: { can_act_in_browser: true },
      },
    });
    await waitFor(() => runner.agents().some((a) => a.def.agent_id === "looper"), { message: "agent loaded" });
  });
  afterAll(async () => {
    await runner?.close();
    await s?.close();
  });

  it(`ends the task at step ${MAX_STEPS} with a text answer when the model always calls a tool`, async () => {
    await s.client.create(pageContext("ext-loop"));
    s.fake.setScript((_req, n) => ({
      kind: "tools",
      calls: [{ name: "browser_click", arguments: { ref: "e12" }, id: `call_${n}` }],
    }));
    const before = s.fake.requests.length;
    await s.client.create(chatMessage("keep clicking", "loop", ["extension:ext-loop"]));

    // Play the browser: answer each action as it comes, until the agent answers in text.
    const answered = new Set<string>();
    const response = await waitFor(
      async () => {
        for (const action of await listAll(s.client, "browser.action.v1", "session:loop")) {
          if (answered.has(action.id)) continue;
          answered.add(action.id);
          await s.client.create(
            actionResult(action, ["extension:ext-loop"], { observation: { url: "https://example.com/pricing", title: "Pricing", url_changed: false } }),
          );
        }
        const [r] = await listAll(s.client, "agent.response.v1", "session:loop");
        return r;
      },
      { timeout: 30_000, interval: 100, message: "the agent's final answer" },
    );
    expect(response.context.content).toMatch(/limit of 3 steps/);

    // Steps 1..MAX_STEPS-1 acted; the last step was offered no tools and wrote no action.
    const calls = s.fake.requests.slice(before);
    expect(calls).toHaveLength(MAX_STEPS);
    expect(calls.slice(0, -1).every((r) => (r.body.tools ?? []).length > 0)).toBe(true);
    expect(calls.at(-1)!.body.tools ?? []).toEqual([]);
    const actions = await listAll(s.client, "browser.action.v1", "session:loop");
    expect(actions).toHaveLength(MAX_STEPS - 1);
    // Nothing more happens: once the agent's triggers and the action results are all delivered and
    // acked, no model call, action or answer came after the final one.
    await waitForAgentDrained(s, "looper");
    await waitForConsumerDrained(s.nats.url, STREAM_NAME, "crumbs_runner_action_results");
    expect(s.fake.requests.length - before).toBe(MAX_STEPS);
    expect(await listAll(s.client, "browser.action.v1", "session:loop")).toHaveLength(MAX_STEPS - 1);
    expect(await listAll(s.client, "agent.response.v1", "session:loop")).toHaveLength(1);
  });
});
