import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { AckPolicy, connect, DeliverPolicy } from "nats";
import type { Page } from "playwright-core";
import { STREAM_NAME } from "@crumbs/schemas";
import { waitFor, waitForConsumerDrained } from "@crumbs/testkit";
import { refInPrompt, sendAction, waitResult } from "./e2e/actions.ts";
import { agentAnswer, chat, ofSession, openForAgent, startControlled } from "./e2e/control.ts";
import type { E2E } from "./e2e/stack.ts";

// The user can stop an agent at once (the side panel's Stop, Esc on the page's mask), and secrets
// never enter the bus: an agent's value for a password field is refused before it is written.

let e: E2E;
let panel: Page;
beforeAll(async () => {
  ({ e, panel } = await startControlled());
});
afterAll(async () => {
  await e?.close();
});

/** Every message in the CRUMBS stream, as text: what any subscriber of the bus could have read. */
async function streamTexts(natsUrl: string): Promise<string[]> {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.consumers.add(STREAM_NAME, { deliver_policy: DeliverPolicy.All, ack_policy: AckPolicy.None });
    const consumer = await nc.jetstream().consumers.get(STREAM_NAME, info.name);
    const texts: string[] = [];
    while (texts.length < info.num_pending) {
      const batch = await consumer.fetch({ max_messages: Math.min(info.num_pending - texts.length, 500), expires: 5_000 });
      const before = texts.length;
      for await (const m of batch) texts.push(m.string());
      if (texts.length === before) throw new Error(`the stream gave ${texts.length} of ${info.num_pending} messages`);
    }
    await jsm.consumers.delete(STREAM_NAME, info.name);
    return texts;
  } finally {
    await nc.close();
  }
}

describe("stop", () => {
  it("Stop during a six-step task: no action runs after the click, the runner's task ends cancelled, all within 1 s", async () => {
    const page = await openForAgent(e, "steps.html", "Next step");
    const step = { kind: "tools" as const, calls: [{ name: "browser_click", arguments: { selector: { role: "button", name: "Next step" } } }] };
    e.fake.setScript((req) => {
      const done = req.body.messages.filter((m) => m.role === "tool").length;
      if (done >= 6) return { kind: "text", content: "All six steps are done." };
      // The model thinks a while between steps, as a real one does.
      return done === 0 ? step : { kind: "slow", delayMs: 800, then: step };
    });
    const session = await chat(panel, "Do the six steps");
    const count = () => page.evaluate(() => (window as { clicks?: number[] }).clicks?.length ?? 0);
    await waitFor(async () => (await count()) >= 2, { timeout: 20_000, message: "two steps done" });
    const task = panel.locator(`.task[data-session="${session}"][data-state="running"]`);
    expect(await task.locator(".agent").innerText()).toMatch(/^page-assistant — step [23] of 8$/);
    expect(await task.locator(".last").innerText()).toContain("page-assistant: click");
    const actionsBefore = (await ofSession(e, "browser.action.v1", session)).length;

    const clicked = Date.now();
    const inFlight = e.fake.requests.length;
    await task.locator("button.stop").dispatchEvent("click");
    const cancelled = await agentAnswer(e, session, (b) => b.context.status === "cancelled", 1_000);
    const tookMs = Date.now() - clicked;
    await page.locator("crumbs-mask").waitFor({ state: "detached", timeout: Math.max(1, 1_000 - (Date.now() - clicked)) });
    expect(tookMs).toBeLessThan(1_000);
    console.log(`stop: task recorded cancelled ${tookMs} ms after the click`);
    expect(cancelled.context).toMatchObject({ agent_id: "page-assistant", status: "cancelled", session_id: session });
    const [cancel] = await ofSession(e, "browser.task.cancel.v1", session);
    expect(cancel?.context).toMatchObject({ session_id: session, agent_id: "page-assistant", root: cancelled.context.in_reply_to });

    // The model's answer in flight at the click comes back and is not acted on; nothing runs later.
    // Once the fake model has ended every request made by the click, and the runner has acked the
    // action result that started that step (it acks after the step is done), the step is over.
    await waitFor(() => e.fake.requests.slice(0, inFlight).every((r) => r.ended), { message: "the model call in flight at the click ended" });
    await waitForConsumerDrained(e.nats.url, STREAM_NAME, "crumbs_runner_action_results");
    const clicks = await page.evaluate(() => (window as { clicks?: number[] }).clicks ?? []);
    expect(clicks.length).toBeLessThan(6);
    expect(clicks.every((t) => t < clicked)).toBe(true);
    expect((await ofSession(e, "browser.action.v1", session)).length).toBe(actionsBefore);
    expect((await ofSession(e, "agent.response.v1", session)).map((b) => b.context.status)).toEqual(["cancelled"]);
    await panel.locator(`.task[data-session="${session}"][data-state="stopped"]`).waitFor();
    await page.close();
  });

  it("Esc on the mask stops the agent: the queued action is dropped with a cancelled result, the mask goes away", async () => {
    const page = await e.open("page2.html");
    const session = `s-esc-${randomUUID().slice(0, 8)}`;
    const running = await sendAction(e, { action: "wait_for", params: { until: { text: "never shown" }, timeout_ms: 3_000 }, session });
    const queued = await sendAction(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session });
    await page.locator("crumbs-mask").waitFor({ state: "attached", timeout: 10_000 });
    await waitFor(async () => (await e.storage<Array<{ request_id: string }>>("crumbs.inbox")).some((x) => x.request_id === queued.request_id), { message: "click queued" });
    const pressed = Date.now();
    await page.keyboard.press("Escape");
    const result = await waitResult(e, queued.request_id, 1_000);
    expect(Date.now() - pressed).toBeLessThan(1_000);
    expect(result).toMatchObject({ status: "error", code: "cancelled" });
    await page.locator("crumbs-mask").waitFor({ state: "detached", timeout: 1_000 });
    const [cancel] = await ofSession(e, "browser.task.cancel.v1", session);
    expect(cancel?.context).toMatchObject({ session_id: session, dropped: [queued.request_id] });
    expect((await waitResult(e, running.request_id, 10_000)).code).toBe("timeout"); // the running one finished as it would
    expect(await page.evaluate(() => (window as { presses?: number }).presses ?? 0)).toBe(0);
    await page.close();
  });
});

describe("secrets never enter the bus", () => {
  it("an agent's fill into a password field is refused, nothing is typed, and the value is in no breadcrumb and no history row", async () => {
    const page = await openForAgent(e, "login.html", "[secret]");
    const secret = `S3cret-${randomUUID()}`;
    e.fake.setScript((req) => {
      const tool = req.body.messages.find((m) => m.role === "tool");
      if (tool) return { kind: "text", content: `I may not type passwords: ${String(tool.content).includes("Ask the user") ? "please type it yourself" : "?"}` };
      return { kind: "tools", calls: [{ name: "browser_fill", arguments: { ref: refInPrompt(req, "textbox", "Password"), value: secret } }] };
    });
    const session = await chat(panel, "Sign me in, my password is in your notes");
    const answer = await agentAnswer(e, session, (b) => String(b.context.content).startsWith("I may not type passwords"));
    expect(answer.context.content).toContain("please type it yourself");

    const [action] = await ofSession(e, "browser.action.v1", session);
    expect(action!.tags).not.toContain(`extension:${e.extensionId}`);
    expect(action!.context).toMatchObject({ action: "fill", params: { value: "(withheld: not stored)" }, refused: { code: "blocked_by_policy" } });
    const [result] = await ofSession(e, "browser.action.result.v1", session);
    expect(result!.context).toMatchObject({ status: "error", code: "blocked_by_policy" });
    expect(String(result!.context.message)).toMatch(/Ask the user to fill it in themselves/);
    expect(await page.locator("input[type=password]").inputValue()).toBe("");

    const sql = postgres(e.db.url, { max: 1, onnotice: () => {} });
    try {
      // The outbox is not scanned: the relay empties it. The stream is what the relay published.
      for (const table of ["breadcrumbs", "breadcrumb_history", "idempotency_keys"]) {
        const [row] = await sql.unsafe(`select count(*)::int as n from ${table} t where t::text like $1`, [`%${secret}%`]);
        expect(row!.n, table).toBe(0);
      }
      const [history] = await sql`select count(*)::int as n from breadcrumb_history where breadcrumb_id = ${action!.id}`;
      expect(history!.n).toBe(1); // the refused action itself is recorded, without the value
    } finally {
      await sql.end();
    }
    // Every event on the bus so far, the refused action's own `created` event included once the
    // relay has published it.
    const texts = await waitFor(
      async () => {
        const all = await streamTexts(e.nats.url);
        return all.some((t) => t.includes(action!.id)) ? all : undefined;
      },
      { message: "the refused action's event in the stream" },
    );
    expect(texts.filter((t) => t.includes(secret))).toEqual([]);

    // The extension refuses too, for an action written past the runner (the last line): nothing typed.
    for (const [action, params] of [
      ["fill", { selector: { role: "textbox", name: "Password" }, value: "typed-by-a-custom-agent" }],
      ["type", { selector: { css: "input[autocomplete=one-time-code]" }, value: "123456" }],
      ["press", { selector: { role: "textbox", name: "Password" }, key: "a" }],
    ] as const) {
      const r = await waitResult(e, (await sendAction(e, { action, params, session: "s-direct" })).request_id);
      expect(r, action).toMatchObject({ status: "error", code: "blocked_by_policy" });
      expect(r.message).toMatch(/Ask the user/);
    }
    expect(await page.locator("input[type=password]").inputValue()).toBe("");
    expect(await page.locator("input[autocomplete=one-time-code]").inputValue()).toBe("");
    await page.close();
  });
});
