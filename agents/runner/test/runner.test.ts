import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import {
  actionResult,
  agentConsumers,
  chatMessage,
  installPageAssistant,
  listAll,
  pageAssistant,
  pageContext,
  startStack,
  startStackRunner,
  waitForAgentDrained,
  waitForCount,
  waitForHandled,
  type TestStack,
} from "./stack.ts";

describe("runner with the page-assistant agent", () => {
  let s: TestStack;
  let runner: Runner;
  let agentId: string;

  beforeAll(async () => {
    s = await startStack();
    runner = await startStackRunner(s, {
      modelTimeoutMs: 1_500,
      logger: silentLogger,
    });
    agentId = (await installPageAssistant(s.client, runner)).id;
  });
  afterAll(async () => {
    await runner?.close();
    await s?.close();
  });

  it("answers a chat message with the page's llm view in the prompt", async () => {
    await s.client.create(pageContext("ext-1"));
    s.fake.queue([{ kind: "text", content: "You are on the pricing page." }]);
    const before = s.fake.requests.length;
    const msg = await s.client.create(chatMessage("what is on this page?", "s1"));
    const [response] = await waitForCount(s.client, "agent.response.v1", 1, "session:s1");
    expect(response!.context).toMatchObject({
      agent_id: "page-assistant",
      content: "You are on the pricing page.",
      session_id: "s1",
      in_reply_to: { id: msg.id, version: 1 },
      final: true,
    });
    expect(response!.tags).toEqual(expect.arrayContaining(["agent:response", "session:s1"]));
    const req = s.fake.requests[before]!;
    expect(req.body.model).toBe("anthropic/claude-3.5-sonnet"); // openrouter/ prefix routed and stripped
    expect(req.authorization).toBe("Bearer or-test-key");
    const prompt = req.body.messages.map((m) => m.content ?? "").join("\n");
    expect(prompt).toContain('button \\"Get started\\" [ref=e12]'); // the snapshot, as JSON in the prompt
    expect(prompt).toContain("what is on this page?");
    expect(prompt).not.toContain("dom-map"); // llm view, not the raw context
    expect(req.body.tools?.map((t) => t.function.name)).toContain("browser_click");
  });

  it("turns a tool call into a browser.action.v1 for the right extension, then continues on its result", async () => {
    await s.client.create(pageContext("ext-2", "Signup"));
    s.fake.queue([
      { kind: "tools", calls: [{ name: "browser_click", arguments: { ref: "e12" }, id: "call_a" }] },
      { kind: "text", content: "Clicked Get started; you are on the signup form now." },
    ]);
    const before = s.fake.requests.length;
    await s.client.create(chatMessage("click get started", "s2", ["extension:ext-2"]));
    const [action] = await waitForCount(s.client, "browser.action.v1", 1, "session:s2");
    expect(action!.context).toMatchObject({
      action: "click",
      params: { ref: "e12" },
      target_extension: "ext-2",
    });
    expect(action!.tags).toEqual(expect.arrayContaining(["browser:action", "extension:ext-2", "session:s2"]));
    // The model saw the page of the extension the message came from.
    expect(JSON.stringify(s.fake.requests[before]!.body.messages)).toContain("Signup");

    await s.client.create(actionResult(action!, ["extension:ext-2"]));
    const [final] = await waitForCount(s.client, "agent.response.v1", 1, "session:s2");
    expect(final!.context.content).toBe("Clicked Get started; you are on the signup form now.");
    const second = s.fake.requests[before + 1]!.body.messages;
    expect(second.find((m) => m.role === "assistant")?.tool_calls).toHaveLength(1);
    expect(second.find((m) => m.role === "tool")).toMatchObject({ tool_call_id: "call_a" });
    expect(second.find((m) => m.role === "tool")?.content).toContain("url_changed");
  });

  it("answers with the error when the model is down, slow or talks garbage, and keeps running", async () => {
    const cases = [
      { session: "e-500", reply: { kind: "status", status: 500 } as const, expect: /answered 500/ },
      { session: "e-slow", reply: { kind: "hang" } as const, expect: /did not answer within/ },
      { session: "e-garbage", reply: { kind: "garbage" } as const, expect: /not JSON/ },
    ];
    for (const c of cases) {
      s.fake.queue([c.reply]);
      await s.client.create(chatMessage("hello", c.session));
      const [r] = await waitForCount(s.client, "agent.response.v1", 1, `session:${c.session}`);
      expect(r!.context.content).toMatch(c.expect);
    }
    s.fake.queue([{ kind: "text", content: "still here" }]);
    await s.client.create(chatMessage("are you alive?", "e-after"));
    const [r] = await waitForCount(s.client, "agent.response.v1", 1, "session:e-after");
    expect(r!.context.content).toBe("still here");
  });

  it("follows a PATCH of the selector within a second and stops when the agent is deleted", async () => {
    s.fake.setScript({ kind: "text", content: "pong" });
    const def = await s.client.get(agentId);
    const context = structuredClone(def.context) as { subscriptions: { selectors: unknown[] } };
    context.subscriptions.selectors = [{ schema_name: "chat.ping.v1", any_tags: ["user:message"] }];
    const patched = await s.client.patch(agentId, { context }, { ifMatch: def.version });
    await waitFor(() => runner.agents().some((a) => a.defVersion === patched.version), { timeout: 1_000 });

    const t0 = Date.now();
    await s.client.create({ ...chatMessage("ping", "p1"), schema_name: "chat.ping.v1" });
    await waitForCount(s.client, "agent.response.v1", 1, "session:p1");
    expect(Date.now() - t0).toBeLessThan(3_000);
    const p2 = await s.client.create(chatMessage("old selector", "p2"));
    // The agent's consumer is past p2 with every delivery acked: had it taken p2, its answer
    // would be written by now (the runner acks after writing).
    const [consumer] = await agentConsumers(s, "page-assistant");
    await waitForHandled(s, consumer!, p2);
    expect(await listAll(s.client, "agent.response.v1", "session:p2")).toHaveLength(0);

    await s.client.delete(agentId);
    await waitFor(() => runner.agents().length === 0, { timeout: 1_000, message: "agent removed" });
    // The shared consumer is removed with the agent, so no replica can be handed a trigger for it.
    await waitFor(async () => (await agentConsumers(s, "page-assistant")).length === 0, {
      timeout: 5_000,
      message: "agent consumer removed",
    });
    // A witness agent on the same selector: once it has answered the ping, the runner took that
    // event in, and the deleted agent, had it still listened, would have had it too.
    const witness = structuredClone(pageAssistant) as typeof pageAssistant & { context: { agent_id: string; subscriptions: { selectors: unknown[] } } };
    witness.context.agent_id = "witness";
    witness.tags = ["agent:def", "agent:witness"];
    witness.context.subscriptions.selectors = [{ schema_name: "chat.ping.v1", any_tags: ["user:message"] }];
    const witnessDef = await s.client.create(witness);
    await waitFor(() => runner.agents().some((a) => a.def.agent_id === "witness"), { message: "witness loaded" });
    await s.client.create({ ...chatMessage("ping after delete", "p3"), schema_name: "chat.ping.v1" });
    const [answer] = await waitForCount(s.client, "agent.response.v1", 1, "session:p3");
    expect(answer!.context.agent_id).toBe("witness");
    await waitForAgentDrained(s, "witness");
    expect(await agentConsumers(s, "page-assistant")).toEqual([]);
    expect(runner.agents().map((a) => a.def.agent_id)).toEqual(["witness"]);
    expect((await listAll(s.client, "agent.response.v1", "session:p3")).map((r) => r.context.agent_id)).toEqual(["witness"]);
    expect(await listAll(s.client, "agent.response.v1", "session:p2")).toHaveLength(0);
    await s.client.delete(witnessDef.id);
    await waitFor(() => runner.agents().length === 0, { timeout: 1_000, message: "witness removed" });
  });
});
