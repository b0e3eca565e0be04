import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { TASK_HELPER_FILE } from "@crumbs/agent-definitions";
import { waitFor } from "@crumbs/testkit";
import type { Breadcrumb } from "../src/shared/api-client.ts";
import { agentAnswer, chat, ofSession, openForAgent, startControlled } from "./e2e/control.ts";
import { TOKEN, type E2E } from "./e2e/stack.ts";

// The runner's task controller in real Chromium with the extension: the task-helper agent (skills on,
// agents/definitions/task-helper.json) on the account site of e2e/pages/site. "Log in and download
// last month's invoice" starts on the sign-in page: the login skill fills the email and waits for the
// user (who types the password and approves), exploration finds Invoices under Account > Billing, and
// the open_item skill downloads the invoice, with no model call. The task breadcrumb records it all.

let e: E2E;
let panel: Page;
const auth = { authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  ({ e, panel } = await startControlled());
  // Only the task helper answers: the page assistant would take the same message.
  const [assistant] = await e.client.list({ schema_name: "agent.def.v1", tag: ["agent:page-assistant"] });
  if (assistant) await fetch(`${e.api.url}/v1/breadcrumbs/${assistant.id}`, { method: "DELETE", headers: auth });
  await e.client.create(JSON.parse(await readFile(TASK_HELPER_FILE, "utf8")));
  await waitFor(() => e.runner.agents().some((a) => a.def.agent_id === "task-helper") && !e.runner.agents().some((a) => a.def.agent_id === "page-assistant"), {
    timeout: 20_000,
    message: "task-helper loaded in place of page-assistant",
  });
});
afterAll(async () => {
  await e?.close();
});

interface TaskVersion {
  status: string;
  progress: number;
  model_calls: number;
  history: Array<{ call: { action: string; params?: Record<string, unknown> }; selector?: string; result: { ok: boolean }; started_at: string; duration_ms: number; pcd_version?: number; skill?: string; url?: string }>;
  plan: Array<{ call: string; status: string; skill?: string; risk?: string }>;
  site_graph?: { nodes: Array<{ url: string; state?: string; depth: number }>; edges: Array<{ label: string }> };
  skills_used?: string[];
  slots: Record<string, { value: string; source: string }>;
}

async function taskOf(session: string): Promise<Breadcrumb | undefined> {
  return (await ofSession(e, "browser.task.v1", session))[0];
}

/** Every version of a breadcrumb, oldest first. */
async function versions(id: string): Promise<TaskVersion[]> {
  const res = await fetch(`${e.api.url}/v1/breadcrumbs/${id}/history?limit=200`, { headers: auth });
  const body = (await res.json()) as { items: Array<{ version: number; context: TaskVersion }> };
  return body.items.sort((a, b) => a.version - b.version).map((i) => i.context);
}

function lastMonth(): { iso: string; label: string } {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return { iso: `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`, label: d.toLocaleString("en", { month: "long", year: "numeric", timeZone: "UTC" }) };
}

describe("a task driven by the controller", () => {
  it("'log in and download last month's invoice' succeeds by skills and exploration: planning, exploring, executing, succeeded, every step recorded", async () => {
    e.fake.setScript(() => ({ kind: "text", content: "The model was asked." }));
    const modelBefore = e.fake.requests.length;
    const page = await openForAgent(e, "site/login.html", "Sign in to your account");
    const session = await chat(panel, "Log in as ada@example.test and download last month's invoice");

    // The login skill fills the email, then the sign-in waits for the user in the side panel.
    const card = panel.locator(".confirmation");
    await card.waitFor({ timeout: 30_000 });
    expect(await page.locator("#email").inputValue()).toBe("ada@example.test");
    const waiting = (await taskOf(session))!;
    expect(waiting.context).toMatchObject({ status: "awaiting_user", message: expect.stringMatching(/^Type your Password in the page, then approve signing in/) });
    expect(JSON.stringify(waiting.context)).not.toContain("correct horse");
    await page.locator("#password").fill("correct horse");
    await card.locator("button.approve").click();

    const answer = await agentAnswer(e, session, (b) => b.context.final === true, 60_000);
    const month = lastMonth();
    expect(answer.context.content).toBe(`Done: download ${month.label}.`);
    // The user sees it in the side panel's task view: the goal, done, at 100%.
    const view = panel.locator("#task-progress");
    await view.locator('[data-status="succeeded"]').waitFor({ timeout: 15_000 });
    expect(await view.locator(".goal").textContent()).toBe("Log in as ada@example.test and download last month's invoice");
    expect(await view.locator(".pct").textContent()).toBe("100%");
    await page.waitForURL(`**/site/invoice.html?month=${month.iso}`);
    expect(await page.title()).toBe(`Invoice ${month.label}`);
    expect(await page.evaluate(() => localStorage.getItem("site.downloaded"))).toBe(month.iso);
    // The password went nowhere near the bus.
    for (const schema of ["browser.action.v1", "browser.action.result.v1", "browser.task.v1"]) {
      expect(JSON.stringify(await ofSession(e, schema, session))).not.toContain("correct horse");
    }

    const task = (await taskOf(session))!;
    const final = task.context as unknown as TaskVersion;
    expect(final).toMatchObject({ status: "succeeded", progress: 1, model_calls: 0, skills_used: ["login", "open_item"] });
    expect(e.fake.requests.length - modelBefore).toBe(0);
    expect(final.slots).toMatchObject({ username: { value: "ada@example.test", source: "goal" }, month: { value: month.iso }, password: { source: "user" } });

    // Every browser call is one step record, in order, with its selector, timing, result and view version.
    const actions = await ofSession(e, "browser.action.v1", session);
    expect(actions.every((a) => (a.context.task as { task_id?: string }).task_id === task.id)).toBe(true);
    expect(final.history).toHaveLength(actions.length);
    expect(final.history.every((h) => h.result.ok && h.selector && h.duration_ms >= 0 && Date.parse(h.started_at) > 0)).toBe(true);
    const calls = final.history.map((h) => `${h.skill ?? "-"}:${h.call.action}`);
    expect(calls.slice(0, 4)).toEqual(["-:snapshot", "login:fill", "login:click", "login:snapshot"]);
    expect(calls.slice(-3)).toEqual(["open_item:query", "open_item:click", "open_item:snapshot"]);
    // The last step (the snapshot after the click) is on the invoice. The click's own record keeps the
    // address when the click returned, which on a loaded machine can be before the navigation it started.
    expect(final.history.at(-1)!.url).toContain(`invoice.html?month=${month.iso}`);
    expect(final.history.at(-1)!.pcd_version).toBe(final.history.filter((h) => h.call.action === "snapshot").length);
    // The confirmation came before the high-risk submit.
    const submit = final.plan.find((p) => p.skill === "login" && p.risk === "high" && p.call === "click")!;
    expect(final.plan[final.plan.indexOf(submit) - 1]).toMatchObject({ call: "confirm", status: "done" });

    // Exploration: Account, then Billing, then Invoices, the goal, three clicks from home.
    const graph = final.site_graph!;
    expect(graph.edges.map((x) => x.label)).toEqual(expect.arrayContaining(["Account", "Billing", "Invoices"]));
    expect(graph.nodes.find((n) => n.state === "goal")).toMatchObject({ url: e.url("site/invoices.html"), depth: 3 });

    // The breadcrumb's versions: planning, executing (login), awaiting the user, exploring, executing, succeeded.
    const all = await versions(task.id);
    const statuses = all.map((v) => v.status).filter((s, i, xs) => s !== xs[i - 1]);
    expect(statuses).toEqual(["planning", "executing", "awaiting_user", "executing", "exploring", "executing", "succeeded"]);
    const progress = all.map((v) => v.progress);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
    expect(progress.at(-1)).toBe(1);
    await page.close();
  });

  it("with explore.tabs on, links are read and judged in background tabs: the user's tab stays, the losers close, the winner's tab shows the invoice", async () => {
    const [def] = await e.client.list({ schema_name: "agent.def.v1", tag: ["agent:task-helper"] });
    await e.client.patch(def!.id, def!.version, { context: { ...def!.context, explore: { beam: 3, depth: 3, tabs: true } } });
    await waitFor(() => e.runner.agents().find((a) => a.def.agent_id === "task-helper")?.def.explore?.tabs === true, { message: "task-helper exploring in tabs" });
    const modelBefore = e.fake.requests.length;
    // Signed in since the test above (the site keeps it in localStorage).
    const page = await openForAgent(e, "site/home.html", "Welcome back");
    const session = await chat(panel, "Download last month's invoice");
    const answer = await agentAnswer(e, session, (b) => b.context.final === true, 60_000);
    const month = lastMonth();
    expect(answer.context.content).toBe(`Done: download ${month.label}.`);
    expect(new URL(page.url()).pathname).toBe("/site/home.html");
    await waitFor(() => e.context.pages().find((p) => p.url().endsWith(`/site/invoice.html?month=${month.iso}`)), { message: "the invoice in the winner's tab" });
    expect(e.context.pages().filter((p) => /\/site\/(account|billing|invoices)\.html/.test(p.url()))).toEqual([]);
    expect(e.fake.requests.length - modelBefore).toBe(0);

    const final = (await taskOf(session))!.context as unknown as TaskVersion;
    expect(final).toMatchObject({ status: "succeeded", progress: 1, model_calls: 0 });
    const calls = final.history.map((h) => h.call.action);
    expect(calls).not.toContain("open");
    expect(calls.filter((a) => a === "click")).toHaveLength(1); // only the invoice's link
    expect(calls.filter((a) => a === "tab_new")).toHaveLength(3);
    expect(calls.filter((a) => a === "tab_close")).toHaveLength(2);
    expect(calls).toContain("tab_switch");
    expect(final.history.filter((h) => h.call.action === "tab_new").every((h) => h.call.params?.active === false)).toBe(true);
    expect(final.site_graph!.nodes.find((n) => n.state === "goal")).toMatchObject({ url: e.url("site/invoices.html"), depth: 3 });
  });
});
