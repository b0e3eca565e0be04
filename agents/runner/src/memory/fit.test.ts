import { describe, expect, it } from "vitest";
import { buildMessages } from "../prompt.ts";
import { MEMORY_SUMMARY_LINES, fitHistory, messageTokens, summaryBlock, turnMessages } from "./fit.ts";
import { estimateTokens } from "./tokens.ts";
import type { HistoryTurn } from "./turns.ts";

const turn = (i: number, opts: { words?: number; call?: boolean } = {}): HistoryTurn => ({
  user: `question ${i}${" lorem".repeat(opts.words ?? 0)}`,
  steps: opts.call
    ? [[{ toolCallId: `call_${i}`, name: "browser_click", arguments: { ref: `e${i}` }, result: '{"status":"ok"}', outcome: "ok" }]]
    : [],
  answers: [`answer ${i}`],
});
const turns = (count: number, opts?: { words?: number; call?: boolean }) => Array.from({ length: count }, (_, i) => turn(i + 1, opts));
const cost = (t: HistoryTurn) => messageTokens(turnMessages(t));
const trigger = { id: "t", version: 1, schema_name: "chat.message.v1", event: "created", view: { content: "and now?" } };

describe("fitting the history into the budget", () => {
  it("keeps every turn whole, oldest first, as user / assistant tool calls / tool results / assistant", () => {
    const fitted = fitHistory(turns(2, { call: true }), 10_000);
    expect(fitted.summary).toEqual([]);
    expect(fitted.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant"]);
    expect(fitted.messages[0]).toEqual({ role: "user", content: "question 1" });
    expect(fitted.messages[1]).toMatchObject({ tool_calls: [{ id: "call_1", function: { name: "browser_click", arguments: '{"ref":"e1"}' } }] });
    expect(fitted.messages[2]).toEqual({ role: "tool", tool_call_id: "call_1", content: '{"status":"ok"}' });
    expect(fitted.messages[3]).toEqual({ role: "assistant", content: "answer 1" });
  });

  it("adds turns newest first until the budget is hit and summarises the older ones, within the budget", () => {
    const all = turns(6, { words: 50, call: true });
    // Whole turns get three quarters of the budget when not everything fits: room for two of them.
    const budget = Math.ceil((cost(all[5]!) + cost(all[4]!)) / 0.75) + 4;
    const fitted = fitHistory(all, budget);
    expect(fitted.messages.filter((m) => m.role === "user").map((m) => (m.content as string).split(" lorem")[0])).toEqual(["question 5", "question 6"]);
    expect(fitted.summary.length).toBeGreaterThan(0);
    expect(fitted.summary.at(-1)).toMatch(/^user: "question 4 lorem.*…"; you called browser_click \{"ref":"e4"\} \(ok\); you answered: "answer 4"$/);
    // Oldest first, and whatever did not fit is dropped from the oldest end.
    const numbers = fitted.summary.map((l) => Number(/question (\d+)/.exec(l)![1]));
    expect(numbers).toEqual([...numbers].sort());
    expect(numbers.at(-1)).toBe(4);
    expect(fitted.dropped + fitted.summary.length + 2).toBe(6);
    expect(messageTokens(fitted.messages) + estimateTokens(summaryBlock(fitted.summary))).toBeLessThanOrEqual(budget);
  });

  it("summarises a newest turn that alone is larger than the budget, and drops past the summary limit", () => {
    const big = turns(MEMORY_SUMMARY_LINES + 5, { words: 4_000 });
    const fitted = fitHistory(big, 5_000);
    expect(fitted.messages).toEqual([]);
    expect(fitted.summary).toHaveLength(MEMORY_SUMMARY_LINES);
    expect(fitted.summary[0]).toMatch(/^user: "question 6 /);
    expect(fitted.dropped).toBe(5);
    for (const line of fitted.summary) expect(line.length).toBeLessThanOrEqual(240);
  });

  it("keeps everything whole when everything fits, up to the last token", () => {
    const all = turns(4, { call: true });
    const exact = all.reduce((sum, t) => sum + cost(t), 0);
    expect(fitHistory(all, exact - 1).summary.length).toBeGreaterThan(0);
    const fitted = fitHistory(all, exact);
    expect(fitted).toMatchObject({ summary: [], dropped: 0 });
    expect(fitted.messages).toHaveLength(16);
  });

  it("gives nothing within a budget too small for one line", () => {
    expect(fitHistory(turns(3), 5)).toEqual({ messages: [], summary: [], dropped: 3 });
  });

  it("renames an earlier tool call id the current task uses again", () => {
    const fitted = fitHistory([turn(1, { call: true }), turn(2, { call: true })].map((t) => ({ ...t, steps: t.steps.map((s) => s.map((c) => ({ ...c, toolCallId: "call_0" }))) })), 10_000, new Set(["call_0"]));
    const ids = fitted.messages.flatMap((m) => (m.role === "assistant" && m.tool_calls ? m.tool_calls.map((c) => c.id) : m.role === "tool" ? [m.tool_call_id] : []));
    expect(ids).toEqual(["call_0~3", "call_0~3", "call_0~2", "call_0~2"]);
  });
});

describe("the prompt with memory", () => {
  const history = turns(30, { words: 40 });
  it("puts the whole turns between the system prompt and the current turn, and the summary into the system message", () => {
    const m = buildMessages({ systemPrompt: "be helpful", contexts: [], trigger, history, memoryTokens: 1_000 });
    expect(m[0]!.role).toBe("system");
    expect(m[0]!.content).toMatch(/^be helpful\n\nEarlier in this conversation \(summarised, oldest first\):\n- user: "question \d+/);
    expect(m.at(-1)).toMatchObject({ role: "user" });
    expect(m.at(-1)!.content).toContain("The user says:\nand now?");
    expect(m.at(-2)).toEqual({ role: "assistant", content: "answer 30" });
    const memory = m.slice(1, -1);
    expect(messageTokens(memory) + estimateTokens((m[0]!.content as string).slice("be helpful\n\n".length))).toBeLessThanOrEqual(1_000);
  });

  it("leaves the history out with a budget of 0", () => {
    const m = buildMessages({ systemPrompt: "be helpful", contexts: [], trigger, history, memoryTokens: 0 });
    expect(m.map((x) => x.role)).toEqual(["system", "user"]);
    expect(m[0]!.content).toBe("be helpful");
  });
});
