import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { actionResult, chatMessage, installPageAssistant, pageContext, startStackRunner, waitForCount } from "../../../agents/runner/test/stack.ts";
import type { PlanStep, TaskStatus } from "@crumbs/schemas";
import { login, startDashboard, type DashboardHarness } from "./harness.ts";


interface Consumers {
  items: { num_pending: number; num_ack_pending: number }[];
}

/** The agents and sessions pages against a real runner whose model is the fake. */
describe("dashboard: agents and sessions", () => {
  let h: DashboardHarness;
  let runner: Runner;
  let release: () => void = () => {};

  beforeAll(async () => {
    h = await startDashboard();
    const s = h.stack;
    runner = await startStackRunner(s, {
      modelTimeoutMs: 30_000,
      ackWaitMs: 5_000,
      logger: silentLogger,
    });
    await installPageAssistant(s.client, runner);
    await s.client.create(pageContext("ext-1"));
    await login(h.page, h.ui);
  });
  afterAll(async () => {
    release();
    await runner?.close();
    await h?.close();
  });

  it("shows a session's chat, the agent's action and its result, and the page version each step saw", async () => {
    const s = h.stack;
    s.fake.queue([
      { kind: "tools", calls: [{ name: "browser_click", arguments: { ref: "e12" }, id: "call_a" }] },
      { kind: "text", content: "Clicked Get started; the signup form is open." },
    ]);
    await s.client.create(chatMessage("click get started", "s-demo", ["extension:ext-1"]));
    const [action] = await waitForCount(s.client, "browser.action.v1", 1, "session:s-demo");
    // The timeline is open while the rest happens: it follows live.
    await h.go("sessions/s-demo");
    await h.page.getByText("no result yet").waitFor();
    // The extension clicks, the page changes (its context becomes v2), then it reports the result.
    const [ctx] = (await s.client.list({ schema_name: "browser.page.context.v1" })).items;
    const signup = pageContext("ext-1", "Signup - Example");
    await s.client.patch(ctx!.id, { title: signup.title, context: { ...signup.context, url: "https://example.com/signup" } }, { ifMatch: ctx!.version });
    await s.client.create(actionResult(action!, ["extension:ext-1"]));
    await waitForCount(s.client, "agent.response.v1", 1, "session:s-demo");

    const timeline = h.page.getByRole("list", { name: "Session timeline" });
    const steps = timeline.locator(":scope > li");
    await steps.nth(2).waitFor({ timeout: 5_000 });
    expect(await steps.count()).toBe(3);
    await expect.poll(() => steps.nth(0).textContent()).toMatch(/user.*click get started/s);
    expect(await steps.nth(0).textContent()).toMatch(/saw page.*Pricing - Example” v1/);
    expect(await steps.nth(1).textContent()).toMatch(/action.*click.*"ref":"e12".*result: ok.*Signup/s);
    expect(await steps.nth(2).textContent()).toMatch(/agent.*Clicked Get started; the signup form is open\./s);
    expect(await steps.nth(2).textContent()).toMatch(/saw page.*Signup - Example” v2/);
    await h.shoot("sessions");
    await h.go("agents");
    await h.page.locator('[data-agent="page-assistant"]').getByRole("link", { name: "s-demo" }).waitFor();
  });

  it("shows the session's task (browser.task.v1): goal, progress and steps, following each new version", async () => {
    const s = h.stack;
    const context = (status: TaskStatus, progress: number, states: PlanStep["status"][]) => ({
      task_id: "t-1",
      session_id: "s-task",
      goal: "Download last month's invoice",
      status,
      progress,
      plan: ["Open Billing", "Open Invoices"].map((label, i) => ({ id: `s${i + 1}`, call: "click", label, status: states[i]! })),
      started_at: "2026-11-28T10:00:00.000Z",
      updated_at: new Date().toISOString(),
    });
    const task = await s.client.create({
      schema_name: "browser.task.v1",
      title: "task: invoice",
      tags: ["browser:task", "session:s-task"],
      context: context("executing", 0.5, ["done", "running"]),
    });
    await h.go("sessions/s-task");
    const card = h.page.getByRole("region", { name: "Task" });
    await card.getByText("Task: Download last month's invoice").waitFor();
    expect(await card.locator("progress").evaluate((p) => (p as HTMLProgressElement).value)).toBe(0.5);
    expect(await card.getByRole("list", { name: "Task steps" }).locator("li").allTextContents()).toEqual(["done Open Billing", "running Open Invoices"]);
    await s.client.patch(task.id, { context: context("succeeded", 1, ["done", "done"]) }, { ifMatch: task.version });
    await h.page.locator('.task-card[data-status="succeeded"]').waitFor({ timeout: 10_000 });
    expect(await card.locator("progress").evaluate((p) => (p as HTMLProgressElement).value)).toBe(1);
  });

  it("shows the running agent with its model, tools and the pending triggers of its consumer", async () => {
    const s = h.stack;
    // The model holds its first answer, so three triggers wait on the agent's consumer.
    const gate = new Promise<void>((r) => (release = r));
    s.fake.setScript(async () => {
      await gate;
      return { kind: "text", content: "Here you are." };
    });
    for (const n of [1, 2, 3]) await s.client.create(chatMessage(`question ${n}`, "busy"));
    await waitFor(
      async () => {
        const res = await fetch(`${s.api.url}/v1/agents/page-assistant/consumers`, { headers: { authorization: `Bearer ${s.env.CRUMBS_TOKEN}` } });
        const c = ((await res.json()) as Consumers).items[0];
        return c && c.num_pending + c.num_ack_pending === 3 ? c : undefined;
      },
      { timeout: 10_000, message: "three triggers pending on the consumer" },
    );
    await h.go("agents");
    const card = h.page.locator('[data-agent="page-assistant"]');
    await card.getByText("openrouter/anthropic/claude-3.5-sonnet").waitFor();
    await card.getByText("browser_*").waitFor();
    // The counts arrive with their own request ("…" until then). While the model holds its first
    // answer none is acked, so waiting and pulled-ahead triggers add up to three; how they split
    // moves as the runner pulls, so the page is held to the sum.
    const counts = await waitFor(
      async () => {
        const pending = await card.getByTestId("pending").textContent();
        const ack = await card.getByTestId("ack-pending").textContent();
        return pending !== "…" && ack !== "…" ? { pending, ack } : undefined;
      },
      { timeout: 10_000, message: "the page shows the consumer's counts" },
    );
    expect(Number(counts.pending) + Number(counts.ack)).toBe(3);
    await h.shoot("agents");

    release();
    await waitForCount(s.client, "agent.response.v1", 3, "session:busy");
    await waitFor(
      async () => {
        await h.go("agents");
        const pending = await card.getByTestId("pending").textContent();
        const ack = await card.getByTestId("ack-pending").textContent();
        return pending === "0" && ack === "0" ? true : undefined;
      },
      { timeout: 10_000, message: "the page shows nothing pending" },
    );
    await card.getByRole("link", { name: "Here you are." }).first().waitFor();
    await card.getByRole("link", { name: "busy" }).waitFor();
    await card.getByRole("link", { name: /^question \d v1$/ }).waitFor(); // the last trigger, by its title
  });

  it("edits the definition with If-Match and refuses a save over someone else's change", async () => {
    const s = h.stack;
    await h.go("agents");
    const card = h.page.locator('[data-agent="page-assistant"]');
    await card.getByRole("button", { name: "Edit definition" }).click();
    const editor = card.getByRole("textbox");
    const text = (await editor.inputValue()).replace("openrouter/anthropic/claude-3.5-sonnet", "openrouter/openai/gpt-4o-mini");
    await editor.fill(text);
    await card.getByRole("button", { name: "Save" }).click();
    const edited = h.page.locator('[data-agent="page-assistant"]');
    await edited.getByText("openrouter/openai/gpt-4o-mini").waitFor();
    await edited.getByText("v2").waitFor();

    // Someone else changes it while this editor is open: the save is refused, nothing is lost.
    await edited.getByRole("button", { name: "Edit definition" }).click();
    const [def] = (await s.client.list({ schema_name: "agent.def.v1" })).items;
    await s.client.patch(def!.id, { title: "changed elsewhere" }, { ifMatch: def!.version });
    await edited.getByRole("button", { name: "Save" }).click();
    await edited.getByRole("alert").filter({ hasText: "version_mismatch" }).waitFor();
    expect((await s.client.get(def!.id)).version).toBe(3);
  });
});
