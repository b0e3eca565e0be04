import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { waitFor } from "@crumbs/testkit";
import { refInPrompt, resultsFor, sendAction, waitResult, type ResultContext } from "./e2e/actions.ts";
import { startE2E, waitForContext, type E2E } from "./e2e/stack.ts";

// The whole loop as a user sees it in the side panel: a chat message makes the (fake) model click
// a button by ref and type into a React field; the page changes; the results and the agent's
// answer arrive and the panel shows them. Then confirmations and the options page.

let e: E2E;
let app: Page;
let panel: Page;
beforeAll(async () => {
  e = await startE2E();
  await e.configure();
  await fetch(e.url("gen/app.js"));
  app = await e.open("app.html");
  await waitForContext(e, (b) => String(b.context.url) === e.url("app.html") && String((b.context.snapshot as { text?: string })?.text).includes("Show details"), "context of app.html", 10_000);
  panel = await e.extensionPage("sidepanel.html");
  await panel.locator('[data-part="NATS"][data-state="connected"]').waitFor({ timeout: 15_000 });
});
afterAll(async () => {
  await e?.close();
});

describe("side panel chat with an agent acting on the page", () => {
  it("a chat message makes the agent click by ref and type into a React field; the panel shows the answer", async () => {
    e.fake.setScript((req, index) => {
      const sawResults = req.body.messages.some((m) => m.role === "tool");
      if (!sawResults) {
        return {
          kind: "tools",
          calls: [
            { name: "browser_click", arguments: { ref: refInPrompt(req, "button", "Show details") } },
            { name: "browser_type", arguments: { ref: refInPrompt(req, "textbox", "Your name"), value: "Ada" } },
          ],
        };
      }
      return { kind: "text", content: `Done (${index}): the details are open and your name is filled in.` };
    });
    const before = e.fake.requests.length;
    await panel.locator("#chat-input").fill("Open the details and put my name, Ada, in the form");
    await panel.locator("button[type=submit]").click();

    await panel.locator(".msg.user", { hasText: "Open the details" }).waitFor();
    await app.getByText("Shipping takes two days.").waitFor({ timeout: 15_000 });
    await app.getByText("Hello Ada").waitFor({ timeout: 15_000 });
    await panel.locator(".msg.agent", { hasText: "the details are open" }).waitFor({ timeout: 15_000 });
    expect(app.url()).toBe(e.url("app.html?view=details"));

    const actions = await e.client.list({ schema_name: "browser.action.v1", tag: [`extension:${e.extensionId}`] });
    expect(actions.map((a) => a.context.action).sort()).toEqual(["click", "type"]);
    const results: ResultContext[] = [];
    for (const a of actions) {
      const [r] = await resultsFor(e, String(a.context.request_id));
      results.push(r!.context as unknown as ResultContext);
    }
    const click = results.find((r) => actions.find((a) => a.id === r.action_id)?.context.action === "click")!;
    expect(click).toMatchObject({ status: "ok", observation: { url: e.url("app.html?view=details"), url_changed: true } });
    expect(results.every((r) => r.status === "ok")).toBe(true);

    // The model's second call had both results.
    const second = e.fake.requests.slice(before).find((r) => r.body.messages.some((m) => m.role === "tool"))!;
    expect(second.body.messages.filter((m) => m.role === "tool")).toHaveLength(2);

    const responses = await e.client.list({ schema_name: "agent.response.v1" });
    expect(responses).toHaveLength(1);
    const activity = await panel.locator("#activity").innerText();
    expect(activity).toMatch(/click.*: ok/);
    expect(activity).toMatch(/type.*: ok/);
  });

  it("a high-risk action waits for the user: Approve runs it, Deny refuses it", async () => {
    await app.bringToFront();
    const approved = await sendAction(e, { action: "submit", params: { selector: { role: "button", name: "Place order" } }, risk: "high", session: "s-risk" });
    const card = panel.locator(`.confirmation[data-request-id="${approved.request_id}"]`);
    await card.waitFor({ timeout: 10_000 });
    expect(await card.innerText()).toContain("submit");
    // The worker logged its wait for the user (the page's guard stopped the submit before it did
    // anything), and nothing about the submit after it: the log is newest first.
    const log = await waitFor(async () => {
      const text = await panel.locator("#activity").innerText();
      return text.includes("waiting for your confirmation: Submit") ? text : undefined;
    }, { message: "the wait in the activity log" });
    expect(log.slice(0, log.indexOf("waiting for your confirmation"))).not.toMatch(/submit/i);
    expect(await app.locator("#ordered").count()).toBe(0); // nothing happened yet
    expect(await resultsFor(e, approved.request_id)).toHaveLength(0);
    await card.locator("button.approve").click();
    expect((await waitResult(e, approved.request_id)).status).toBe("ok");
    await app.getByText("ordered by Ada").waitFor();

    const denied = await sendAction(e, { action: "submit", params: { selector: { role: "button", name: "Place order" } }, risk: "high", session: "s-risk" });
    await panel.locator(`.confirmation[data-request-id="${denied.request_id}"] button.deny`).click();
    expect(await waitResult(e, denied.request_id)).toMatchObject({ status: "error", code: "blocked_by_policy", message: "the user declined this action" });
    await waitFor(async () => (await panel.locator(".confirmation").count()) === 0, { message: "confirmations cleared" });
  });
});

describe("options page", () => {
  it("tests the connection and saves the settings under the documented keys", async () => {
    const options = await e.extensionPage("options.html");
    await options.locator("#apiUrl").fill(e.api.url);
    await options.locator("#token").fill("wrong-token");
    await options.locator("#natsWsUrl").fill(e.nats.wsUrl);
    await options.locator("#test").click();
    await options.locator('[data-part="API"].error').waitFor();
    await options.locator('[data-part="NATS"].ok').waitFor();
    await options.locator("#token").fill("e2e-token-0123456789");
    await options.locator("#test").click();
    await options.locator('[data-part="API"].ok').waitFor();
    await options.locator("#natsWsUrl").fill("not a url");
    await options.locator("#save").click();
    expect(await options.locator("#message").innerText()).toMatch(/natsWsUrl/);
    await options.locator("#natsWsUrl").fill(e.nats.wsUrl);
    await options.locator("#allowlist").fill("*.example.com\n127.0.0.1");
    await options.locator("#save").click();
    await options.getByText("Saved.").waitFor();
    expect(await e.storage("allowlist")).toEqual(["*.example.com", "127.0.0.1"]);
    expect(await e.storage("natsWsUrl")).toBe(e.nats.wsUrl);
    await options.locator("#allowlist").fill("");
    await options.locator("#save").click();
    await waitFor(async () => (await e.storage("allowlist")) === undefined, { message: "allowlist removed" });
    await options.close();
  });
});
