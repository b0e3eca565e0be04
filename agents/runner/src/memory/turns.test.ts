import { describe, expect, it } from "vitest";
import type { Breadcrumb } from "@crumbs/agent-sdk";
import { buildMessages } from "../prompt.ts";
import { WITHHELD } from "../secrets.ts";
import { planTurns, renderTurns, type Plan } from "./turns.ts";

// Fixtures as the API lists them: raw breadcrumbs for structure, llm views for what the model reads.
let clock = Date.parse("2030-01-01T00:00:00Z");
let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
function crumb(schema_name: string, context: Record<string, unknown>, tags: string[] = []): Breadcrumb {
  const at = new Date((clock += 1000)).toISOString();
  return { id: uuid(), owner: "o", schema_name, title: schema_name, tags: ["session:s", ...tags], context, version: 1, created_at: at, updated_at: at, created_by: "o", updated_by: "o" };
}
const message = (content: string) => crumb("chat.message.v1", { role: "user", content, session_id: "s" });
const answer = (root: Breadcrumb, content: string, agent = "me") =>
  crumb("agent.response.v1", { agent_id: agent, content, session_id: "s", in_reply_to: { id: root.id, version: root.version } });
const action = (root: Breadcrumb, step: number, index: number, action: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}, agent = "me") =>
  crumb("browser.action.v1", {
    action,
    params,
    request_id: `req-${++n}`,
    task: { agent_id: agent, root: { id: root.id, version: root.version }, session_id: "s", step, tool_call_id: `call_${step}_${index}`, index },
    ...extra,
  });
const result = (a: Breadcrumb, status: string, more: Record<string, unknown> = {}) =>
  crumb("browser.action.result.v1", { request_id: a.context.request_id, action_id: a.id, status, ...more });

/** Every item's view is its context, as without llm_hints; `override` stands for hints that change it. */
const viewsOf = (items: Breadcrumb[], override: Record<string, Record<string, unknown>> = {}) =>
  new Map(items.map((b) => [b.id, override[b.id] ?? b.context]));
const newestFirst = (items: Breadcrumb[]) => [...items].reverse();
const plan = (items: Breadcrumb[], root: Breadcrumb, cutoff = Date.parse(root.created_at)): Plan =>
  planTurns(newestFirst(items), { agentId: "me", root: { id: root.id, version: root.version }, cutoff, maxTurns: 50 });

describe("session turns", () => {
  it("groups the session into this agent's turns: the message, its tool steps in order with results, the answer", () => {
    const m1 = message("open pricing");
    const a2 = action(m1, 2, 0, "click", { ref: "e9" });
    const a1 = action(m1, 1, 0, "click", { ref: "e1" });
    const a1b = action(m1, 1, 1, "snapshot", {});
    const r1 = result(a1, "ok"), r1b = result(a1b, "ok", { data: { text: "- heading" } }), r2 = result(a2, "error", { code: "timeout" });
    const done = answer(m1, "Pricing is open.");
    const other = answer(m1, "I am another agent.", "someone-else");
    const otherAction = action(m1, 1, 0, "click", { ref: "x" }, {}, "someone-else");
    const m2 = message("and now?");
    const items = [m1, a2, a1, a1b, r1, r1b, r2, done, other, otherAction, m2];
    const p = plan(items, m2);
    const [turn] = renderTurns(p, viewsOf(items), { triggerId: m2.id, contexts: [] });
    expect(p.turns).toHaveLength(1);
    expect(turn!.user).toBe("open pricing");
    expect(turn!.steps.map((s) => s.map((c) => `${c.name} ${c.outcome}`))).toEqual([
      ["browser_click ok", "browser_snapshot ok"],
      ["browser_click error: timeout"],
    ]);
    expect(turn!.steps[1]![0]!.result).toContain('"code":"timeout"');
    expect(turn!.answers).toEqual(["Pricing is open."]);
  });

  it("keeps only what came before the trigger, and leaves the current task to its own steps", () => {
    const m1 = message("first");
    const m2 = message("second, the trigger");
    const ownStep = action(m2, 1, 0, "click", { ref: "e1" });
    const late = answer(m1, "an answer written after the trigger");
    const p = plan([m1, m2, ownStep, late], m2);
    expect(p.turns.map((t) => [t.message?.context.content, t.actions.length, t.answers.length])).toEqual([["first", 0, 0]]);
  });

  it("reads what the model sees from the llm views and leaves out an item whose view is gone", () => {
    const m1 = message("raw words");
    const a1 = action(m1, 1, 0, "click", { ref: "e1" });
    const done = answer(m1, "raw answer");
    const m2 = message("now");
    const items = [m1, a1, done, m2];
    const views = viewsOf(items, { [m1.id]: { content: "viewed words" } });
    views.delete(done.id);
    const [turn] = renderTurns(plan(items, m2), views, { triggerId: m2.id, contexts: [] });
    expect(turn).toMatchObject({ user: "viewed words", answers: [] });
    expect(turn!.steps[0]![0]).toMatchObject({ result: "no result", outcome: "no result" });
  });

  it("keeps refused and cancelled results in the history", () => {
    const m1 = message("do it");
    const a1 = action(m1, 1, 0, "click", { ref: "e1" });
    const a2 = action(m1, 1, 1, "submit", { ref: "e2" });
    const items = [m1, a1, a2, result(a1, "error", { code: "user_denied" }), result(a2, "error", { code: "cancelled" }), answer(m1, "Stopped.")];
    const m2 = message("again");
    const [turn] = renderTurns(plan([...items, m2], m2), viewsOf(items), { triggerId: m2.id, contexts: [] });
    expect(turn!.steps[0]!.map((c) => c.outcome)).toEqual(["error: user_denied", "error: cancelled"]);
  });
});

describe("secrets in the history", () => {
  const secret = "hunter2-never-again";
  it("withholds a value the extension refused, one aimed at a field marked secret since, and one by its name", () => {
    const m1 = message("log me in");
    // The extension refused it: the value is still in the action breadcrumb, it must not come back.
    const byExtension = action(m1, 1, 0, "fill", { selector: { role: "textbox", name: "Secret word" }, value: secret });
    const snap = action(m1, 1, 1, "snapshot", {});
    // A later snapshot of the task marked e7 secret.
    const byRef = action(m1, 2, 0, "type", { ref: "e7", text: secret });
    // The current page context marks e4 secret.
    const byContext = action(m1, 2, 1, "fill", { ref: "e4", value: secret });
    const byName = action(m1, 2, 2, "fill", { selector: { css: "input[type=password]" }, value: secret });
    const items = [
      m1, byExtension, snap, byRef, byContext, byName,
      result(byExtension, "error", { code: "blocked_by_policy", message: "blocked" }),
      result(snap, "ok", { data: { text: '- textbox "Code" [ref=e7] [secret]' } }),
      answer(m1, "Please type it yourself."),
    ];
    const m2 = message("did it work?");
    const contexts = [{ dom: { interactiveElements: { e4: { role: "textbox", name: "Code", secret: true } } } }];
    const history = renderTurns(plan([...items, m2], m2), viewsOf(items), { triggerId: m2.id, contexts });
    const calls = history[0]!.steps.flat();
    expect(calls.filter((c) => c.name !== "browser_snapshot").map((c) => c.arguments.value ?? c.arguments.text)).toEqual([WITHHELD, WITHHELD, WITHHELD, WITHHELD]);
    const messages = buildMessages({
      systemPrompt: "s",
      contexts: [],
      trigger: { id: m2.id, version: 1, schema_name: "chat.message.v1", event: "created", view: m2.context },
      history,
      memoryTokens: 4_000,
    });
    expect(JSON.stringify(messages)).toContain("Please type it yourself.");
    expect(JSON.stringify(messages)).not.toContain(secret);
  });
});
