import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { waitFor } from "@crumbs/testkit";
import { TASK_SCHEMA, TASK_TAG, type TaskContext } from "@crumbs/schemas";
import { startE2E, type E2E } from "./e2e/stack.ts";

// The side panel's task view: the chat session's browser.task.v1, written through the API as the runner's
// task controller writes it (a new version at each change), shows its goal, a progress bar and its plan's
// steps, and follows each new version live.

let e: E2E;
let panel: Page;
let session: string;
beforeAll(async () => {
  e = await startE2E();
  await e.configure();
  panel = await e.extensionPage("sidepanel.html");
  await waitFor(async () => typeof (await e.storage("crumbs.chatSession")) === "string", { message: "the panel's chat session" });
  session = await e.storage<string>("crumbs.chatSession");
});
afterAll(async () => {
  await e?.close();
});

const view = () => panel.locator("#task-progress");
const progress = () => view().locator("progress").evaluate((p) => (p as HTMLProgressElement).value);
const steps = () => view().locator(".step").evaluateAll((items) => items.map((li) => `${(li as HTMLElement).dataset.status}: ${li.textContent}`));

function task(patch: Partial<TaskContext>): Record<string, unknown> {
  return {
    task_id: "t-invoice",
    session_id: session,
    agent_id: "page-assistant",
    goal: "Download last month's invoice",
    status: "planning",
    progress: 0,
    plan: [
      { id: "s1", call: "click", label: "Open Billing", status: "pending" },
      { id: "s2", call: "click", label: "Open Invoices", status: "pending" },
      { id: "s3", call: "click", label: "Download the October invoice", status: "pending", risk: "medium" },
    ],
    history: [],
    model_calls: 0,
    started_at: "2026-11-28T10:00:00.000Z",
    updated_at: new Date().toISOString(),
    ...patch,
  };
}

describe("the task view in the side panel", () => {
  it("shows the goal, the progress and the steps of the session's task, and follows each new version live", async () => {
    const tags = [TASK_TAG, `session:${session}`, "agent:page-assistant"];
    const created = await e.client.create({ schema_name: TASK_SCHEMA, title: "task: invoice", tags, context: task({}) });
    await view().locator('[data-status="planning"]').waitFor({ timeout: 15_000 });
    expect(await view().locator(".goal").textContent()).toBe("Download last month's invoice");
    expect(await view().locator(".task-status").textContent()).toBe("Planning");
    expect(await progress()).toBe(0);
    expect(await steps()).toEqual(["pending: ○ Open Billing", "pending: ○ Open Invoices", "pending: ○ Download the October invoice"]);

    const record = (action: string) => ({ call: { action }, started_at: new Date().toISOString(), duration_ms: 40, result: { ok: true } });
    const midway = await e.client.patch(created.id, created.version, {
      context: task({
        status: "executing",
        subgoal: "find the invoices page",
        progress: 0.5,
        model_calls: 1,
        plan: [
          { id: "s1", call: "click", label: "Open Billing", status: "done" },
          { id: "s2", call: "click", label: "Open Invoices", status: "running" },
          { id: "s3", call: "click", label: "Download the October invoice", status: "pending" },
        ],
        history: [record("click")],
      }),
    });
    await view().locator('[data-status="executing"]').waitFor({ timeout: 15_000 });
    expect(await progress()).toBe(0.5);
    expect(await view().locator(".pct").textContent()).toBe("50%");
    expect(await view().locator(".subgoal").textContent()).toBe("now: find the invoices page");
    expect(await steps()).toEqual(["done: ✓ Open Billing", "running: ▶ Open Invoices", "pending: ○ Download the October invoice"]);
    expect(await view().locator(".counts").textContent()).toBe("1 step run, 1 model call");

    await e.client.patch(created.id, midway.version, {
      context: task({
        status: "succeeded",
        progress: 1,
        model_calls: 1,
        plan: ["Open Billing", "Open Invoices", "Download the October invoice"].map((label, i) => ({ id: `s${i + 1}`, call: "click", label, status: "done" })),
        history: [record("click"), record("click"), record("click")],
      }),
    });
    await view().locator('[data-status="succeeded"]').waitFor({ timeout: 15_000 });
    expect(await view().locator(".task-status").textContent()).toBe("Done");
    expect(await progress()).toBe(1);
    expect(await view().locator(".pct").textContent()).toBe("100%");
    expect((await steps()).every((s) => s.startsWith("done: ✓"))).toBe(true);
  });

  it("a panel opened later shows the task from the API's history", async () => {
    const again = await e.extensionPage("sidepanel.html");
    await again.locator('#task-progress[data-status="succeeded"]').waitFor({ timeout: 15_000 });
    expect(await again.locator("#task-progress .goal").textContent()).toBe("Download last month's invoice");
    await again.close();
  });
});
