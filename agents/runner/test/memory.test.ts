import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor, type RecordedRequest, type ScriptedReply } from "@crumbs/testkit";
import { type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import type { Breadcrumb } from "@crumbs/agent-sdk";
import { actionResult, chatMessage, pageContext, startStack, startStackRunner, waitForCount, type TestStack } from "./stack.ts";

// Session memory (docs/agents.md, "Memory"): the model's request for a message carries the earlier
// turns of the same session, within the agent's token budget, read with bounded work.

const agentDef = (agentId: string, extra: Record<string, unknown> = {}) => ({
  schema_name: "agent.def.v1",
  title: agentId,
  tags: ["agent:def", `agent:${agentId}`],
  context: {
    agent_id: agentId,
    model: "test-model",
    system_prompt: `You are ${agentId}.`,
    subscriptions: { selectors: [{ schema_name: "chat.message.v1", all_tags: ["user:message", `to:${agentId}`] }] },
    context_selectors: [{ schema_name: "browser.page.context.v1", all_tags: ["browser:context", "extension:{{trigger.extension}}"] }],
    tools: ["browser_*"],
    ...extra,
  },
});

/** What the user says in a request's current turn. */
const currentWords = (req: RecordedRequest) => {
  const turn = req.body.messages.findLast((m) => m.role === "user" && String(m.content).includes("The user says:\n"));
  return String(turn?.content).split("The user says:\n")[1];
};
/** The earlier turns a request carries: everything between the system message and the current turn. */
const historyOf = (req: RecordedRequest) => {
  const m = req.body.messages;
  return m.slice(1, m.findLastIndex((x) => x.role === "user" && String(x.content).includes("The user says:\n")));
};

let s: TestStack;
let runner: Runner;
const replies = new Map<string, ScriptedReply[]>();
const apiCalls: string[] = [];

beforeAll(async () => {
  s = await startStack();
  s.fake.setScript((req) => replies.get(currentWords(req) ?? "")?.shift() ?? { kind: "text", content: "ok" });
  runner = await startStackRunner(s, {
    logger: silentLogger,
    fetch: (input, init) => {
      if (String(input).startsWith(s.api.url)) apiCalls.push(`${init?.method ?? "GET"} ${String(input)}`);
      return globalThis.fetch(input, init);
    },
  });
  for (const def of [agentDef("rememberer"), agentDef("brief", { memory_tokens: 300 }), agentDef("forgetful", { memory_tokens: 0 })]) await s.client.create(def);
  await waitFor(() => runner.agents().length === 3, { message: "agents loaded" });
});
afterAll(async () => {
  await runner?.close();
  await s?.close();
});

/** Send a message to an agent; the answer it ended the task with and the model's request for it. */
async function ask(agentId: string, session: string, content: string, script: ScriptedReply[], extraTags: string[] = []) {
  replies.set(content, script);
  const msg = await s.client.create(chatMessage(content, session, [`to:${agentId}`, ...extraTags]));
  const answer = await waitFor(
    async () => {
      for await (const b of s.client.listAll({ schema_name: "agent.response.v1", tag: [`session:${session}`] }))
        if ((b.context.in_reply_to as { id: string }).id === msg.id) return b;
      return undefined;
    },
    { timeout: 15_000, message: `the answer to "${content}"` },
  );
  const request = s.fake.requests.find((r) => currentWords(r) === content)!;
  return { msg, answer, request };
}

describe("session memory", () => {
  it("the second message of a session carries the first exchange as chat turns", async () => {
    const first = await ask("rememberer", "m1", "What does the basic plan cost?", [{ kind: "text", content: "The basic plan costs $10 a month." }]);
    expect(historyOf(first.request)).toEqual([]);
    const second = await ask("rememberer", "m1", "And per year?", [{ kind: "text", content: "$120 a year." }]);
    expect(historyOf(second.request)).toEqual([
      { role: "user", content: "What does the basic plan cost?" },
      { role: "assistant", content: "The basic plan costs $10 a month." },
    ]);
    expect(second.answer.context.content).toBe("$120 a year.");
  });

  it("remembers the browser actions of the first exchange with their results", async () => {
    await s.client.create(pageContext("ext-m", "Pricing"));
    const script: ScriptedReply[] = [
      { kind: "tools", calls: [{ name: "browser_click", arguments: { ref: "e12" }, id: "call_click" }, { name: "browser_snapshot", arguments: {}, id: "call_snap" }] },
      { kind: "text", content: "Clicked Get started." },
    ];
    replies.set("click get started", script);
    await s.client.create(chatMessage("click get started", "m2", ["to:rememberer", "extension:ext-m"]));
    const actions = await waitForCount(s.client, "browser.action.v1", 2, "session:m2");
    const click = actions.find((a) => a.context.action === "click")!;
    const snap = actions.find((a) => a.context.action === "snapshot")!;
    // The click is answered as the extension does (tagged with the session), the snapshot by a
    // writer that tags no session: both come back.
    await s.client.create(actionResult(click, ["extension:ext-m", "session:m2"]));
    await s.client.create(
      actionResult(snap, [], {
        title: "snapshot failed",
        status: "error",
        code: "timeout",
        message: "the page did not settle",
        observation: { url: "https://example.com/signup", title: "Signup", url_changed: false },
      }),
    );
    await waitForCount(s.client, "agent.response.v1", 1, "session:m2");

    const second = await ask("rememberer", "m2", "What did you click?", [{ kind: "text", content: "Get started." }], ["extension:ext-m"]);
    const history = historyOf(second.request);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    expect(history[0]).toEqual({ role: "user", content: "click get started" });
    expect(history[1]!.tool_calls).toEqual([
      { id: "call_click", type: "function", function: { name: "browser_click", arguments: '{"ref":"e12"}' } },
      { id: "call_snap", type: "function", function: { name: "browser_snapshot", arguments: "{}" } },
    ]);
    expect(history[2]).toMatchObject({ tool_call_id: "call_click" });
    expect(JSON.parse(String(history[2]!.content))).toMatchObject({ status: "ok", observation: { url: "https://example.com/signup", url_changed: true } });
    expect(history[3]).toMatchObject({ tool_call_id: "call_snap" });
    expect(JSON.parse(String(history[3]!.content))).toMatchObject({ status: "error", code: "timeout" });
    expect(history[4]).toEqual({ role: "assistant", content: "Clicked Get started." });
  });

  it("a message in another session sees none of it", async () => {
    const other = await ask("rememberer", "m-other", "Who am I?", [{ kind: "text", content: "I do not know yet." }]);
    expect(historyOf(other.request)).toEqual([]);
    expect(JSON.stringify(other.request.body.messages)).not.toMatch(/basic plan|click get started|Clicked/);
  });

  it("with memory_tokens 0 the agent remembers nothing", async () => {
    await ask("forgetful", "f1", "My name is Ada.", [{ kind: "text", content: "Hello Ada." }]);
    const second = await ask("forgetful", "f1", "What is my name?", [{ kind: "text", content: "I do not know." }]);
    expect(second.request.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(JSON.stringify(second.request.body.messages)).not.toContain("Ada");
  });

  it("a long session stays within the agent's budget, newest whole, older summarised, oldest dropped, read with bounded work", async () => {
    // 150 earlier turns of the brief agent (300 breadcrumbs), written as the runner would have.
    for (let i = 1; i <= 150; i++) {
      const m: Breadcrumb = await s.client.create(chatMessage(`question ${i}`, "long"));
      await s.client.create({
        schema_name: "agent.response.v1",
        title: `brief: answer ${i}`,
        tags: ["agent:response", "session:long", "agent:brief"],
        context: { agent_id: "brief", content: `answer ${i}`, session_id: "long", in_reply_to: { id: m.id, version: m.version } },
      });
    }
    apiCalls.length = 0;
    const { request } = await ask("brief", "long", "What did I ask first?", [{ kind: "text", content: "I only remember the last ones." }]);
    const history = historyOf(request);
    const system = String(request.body.messages[0]!.content);
    const summary = system.slice("You are brief.\n\n".length);
    // The budget, counted as the runner counts it: four characters a token.
    expect(Math.ceil(JSON.stringify(history).length / 4) + Math.ceil(summary.length / 4)).toBeLessThanOrEqual(300);
    expect(history.at(-1)).toEqual({ role: "assistant", content: "answer 150" });
    expect(history.length).toBeGreaterThanOrEqual(4);
    expect(summary).toMatch(/^Earlier in this conversation \(summarised, oldest first\):\n- user: "question \d+"; you answered: "answer \d+"/);
    const summarised = [...summary.matchAll(/question (\d+)/g)].map((m) => Number(m[1]));
    const whole = history.filter((m) => m.role === "user").map((m) => Number(String(m.content).split(" ")[1]));
    expect([...summarised, ...whole]).toEqual(Array.from({ length: summarised.length + whole.length }, (_, k) => 151 - summarised.length - whole.length + k));
    expect(JSON.stringify(request.body.messages)).not.toContain('"question 1"');
    // One page of the session, and a view for each item of the turns kept: never the 300 breadcrumbs.
    const sessionLists = apiCalls.filter((c) => c.startsWith("GET") && c.includes("/v1/breadcrumbs?") && decodeURIComponent(c).includes("session:long") && c.includes("agent.response.v1"));
    const views = apiCalls.filter((c) => c.startsWith("GET") && c.includes("view=llm"));
    expect(sessionLists).toHaveLength(1);
    expect(views.length).toBeLessThanOrEqual(101); // the trigger's view and at most one per breadcrumb read
  });
});
