import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "nats";
import type { Page } from "playwright-core";
import { ApiResponseError } from "@crumbs/agent-sdk/http";
import { waitFor } from "@crumbs/testkit";
import { act, refInPrompt, resultsFor, sendAction, waitResult } from "./e2e/actions.ts";
import { actionEvent, agentAnswer, chat, openForAgent, startControlled } from "./e2e/control.ts";
import type { E2E } from "./e2e/stack.ts";

// Risk is decided in the browser, from what the action will do on the page: the writer's `risk`
// cannot lower it. The user sees in words what will happen, with the element highlighted, and may
// allow a kind for good on a site (listed and revoked in the options page). Only http(s) URLs open,
// and only actions of the extension's own owner run.

let e: E2E;
let panel: Page;
beforeAll(async () => {
  ({ e, panel } = await startControlled());
});
afterAll(async () => {
  await e?.close();
});

interface Entry {
  request_id: string;
  session: string;
  state: string;
}
/** The worker's inbox entries (extension/src/shared/state/inbox.ts) that match. */
const entries = async (match: (x: Entry) => boolean) => ((await e.storage<Entry[]>("crumbs.inbox")) ?? []).filter(match);
const signedIn = (page: Page) => page.locator("#out").innerText();
const card = (requestId: string) => panel.locator(`.confirmation[data-request-id="${requestId}"]`);

describe("risk decided in the page", () => {
  it("an action written with risk low that would submit a form waits for approval, and is not executed when the user denies it", async () => {
    const page = await e.open("login.html");
    const paths = [
      { action: "submit", params: { selector: { role: "textbox", name: "Email" } } },
      { action: "click", params: { selector: { role: "button", name: "Sign in" } } }, // <button> without type in a form
      { action: "press", params: { selector: { role: "textbox", name: "Email" }, key: "Enter" } },
    ];
    for (const p of paths) {
      const sent = await sendAction(e, { ...p, risk: "low", session: "s-low" });
      await card(sent.request_id).waitFor({ timeout: 10_000 });
      expect(await card(sent.request_id).locator(".what").innerText()).toMatch(/^Submit the form 'Sign in' on 127\.0\.0\.1/);
      await page.locator("crumbs-highlight").waitFor({ state: "attached" }); // the element is shown to the user
      // The worker holds it for the user: it has not run and will not until a decision.
      expect(await entries((x) => x.request_id === sent.request_id)).toMatchObject([{ state: "awaiting_confirmation" }]);
      expect(await signedIn(page), p.action).toBe("");
      expect(await resultsFor(e, sent.request_id)).toHaveLength(0);
      await card(sent.request_id).locator("button.deny").click();
      expect(await waitResult(e, sent.request_id)).toMatchObject({ status: "error", code: "blocked_by_policy", message: "the user declined this action" });
      expect(await signedIn(page), p.action).toBe("");
      await page.locator("crumbs-highlight").waitFor({ state: "detached" });
    }
    await page.close();
  });

  it("a page that tells the model to click 'Delete my account': the model obeys, the extension asks, the page is unchanged until the user approves", async () => {
    const page = await openForAgent(e, "inject.html", "Delete my account");
    e.fake.setScript((req) =>
      req.body.messages.some((m) => m.role === "tool")
        ? { kind: "text", content: "I clicked it as the page said." }
        : { kind: "tools", calls: [{ name: "browser_click", arguments: { ref: refInPrompt(req, "button", "Delete my account") } }] },
    );
    const session = await chat(panel, "What is on this page?");
    const ask = panel.locator('.confirmation[data-kind="destructive"]');
    await ask.waitFor({ timeout: 15_000 });
    expect(await ask.locator(".what").innerText()).toBe("Click button 'Delete my account' on 127.0.0.1");
    const [action] = await e.client.list({ schema_name: "browser.action.v1", tag: [`session:${session}`] });
    expect(action!.context.risk).toBe("medium"); // what the runner wrote; the page raised it
    expect(await entries((x) => x.session === session && x.state !== "done")).toMatchObject([{ state: "awaiting_confirmation" }]);
    expect(await page.locator("#status").innerText()).toBe("Account active");
    await ask.locator("button.approve").click();
    await page.getByText("Account deleted").waitFor({ timeout: 10_000 });
    await agentAnswer(e, session, (b) => String(b.context.content).includes("I clicked it"));
    await page.close();
  });

  it("'Always allow' a kind on a site: the next one runs without asking; the options page lists it and revokes it", async () => {
    const page = await e.open("login.html");
    const first = await sendAction(e, { action: "click", params: { selector: { role: "button", name: "Sign in" } }, session: "s-grant" });
    await card(first.request_id).locator("button.always").click();
    expect((await waitResult(e, first.request_id)).status).toBe("ok");
    expect(await signedIn(page)).toBe("signed in");
    expect(await e.storage("crumbs.grants")).toMatchObject([{ site: "127.0.0.1", kind: "submit" }]);
    await page.reload();
    expect((await act(e, { action: "submit", params: { selector: { role: "textbox", name: "Email" } }, session: "s-grant" })).status).toBe("ok");

    const options = await e.extensionPage("options.html");
    const grant = options.locator('.grant[data-site="127.0.0.1"][data-kind="submit"]');
    expect(await grant.innerText()).toContain("127.0.0.1: submit forms");
    await grant.locator("button.revoke").click();
    await options.getByText("None.").waitFor();
    await options.close();
    await page.bringToFront();
    const again = await sendAction(e, { action: "submit", params: { selector: { role: "textbox", name: "Email" } }, session: "s-grant" });
    await card(again.request_id).locator("button.deny").click();
    expect((await waitResult(e, again.request_id)).code).toBe("blocked_by_policy");
    await page.close();
  });

  it("without an allowlist an agent writes only on the site where its task started, checked in the frame it acts on", async () => {
    const page = await e.open("gen/cross-frame.html");
    await page.frameLocator("iframe").getByText("Press me").waitFor();
    const snap = await act(e, { action: "snapshot", session: "s-site" });
    const text = String(snap.data?.text);
    const inFrame = /button "Press me" \[ref=(f\d+e\d+)\]/.exec(text)?.[1];
    expect(inFrame, text).toBeDefined();
    const blocked = await act(e, { action: "click", params: { ref: inFrame }, session: "s-site" });
    expect(blocked).toMatchObject({ status: "error", code: "blocked_by_policy" });
    expect(blocked.message).toMatch(/localhost.*only on the site where the task started \(127\.0\.0\.1\)/);
    const frame = page.frames().find((f) => f.url().includes("localhost"))!;
    expect(await frame.evaluate(() => (window as { presses?: number }).presses ?? 0)).toBe(0);
    // The page itself is the task's site.
    expect((await act(e, { action: "click", params: { selector: { role: "button", name: "Here" } }, session: "s-site" })).status).toBe("ok");

    // Leaving the site asks; once the user approves, the agent may act on the new site too.
    const leave = await sendAction(e, { action: "tab_new", params: { url: e.url("page2.html", { other: true }) }, session: "s-site" });
    const waiting = card(leave.request_id);
    await waiting.waitFor({ timeout: 10_000 });
    expect(await waiting.locator(".what").innerText()).toMatch(/^Leave 127\.0\.0\.1 and open http:\/\/localhost:\d+\/page2\.html in a new tab/);
    await waiting.locator("button.approve").click();
    const opened = await waitResult(e, leave.request_id, 20_000);
    expect(opened.status).toBe("ok");
    const press = await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, tab_id: opened.data?.tab_id as number, session: "s-site" });
    expect(press.status).toBe("ok");
    await page.close();
  });
});

describe("only the bus commands the browser", () => {
  it("open of a file: URL answers invalid_params", async () => {
    const write = await e.client
      .create({
        schema_name: "browser.action.v1",
        title: "open file",
        tags: [`extension:${e.extensionId}`],
        context: { action: "open", params: { url: "file:///etc/passwd" }, target_extension: e.extensionId, request_id: "file-1" },
      })
      .catch((err: unknown) => err);
    expect(write).toBeInstanceOf(ApiResponseError);
    expect(write).toMatchObject({ status: 422, code: "schema_validation_failed" });
    expect((write as Error).message).toMatch(/only http and https/);

    // Written past the API's validation, straight onto an open NATS: the extension answers invalid_params.
    await e.open("page2.html");
    const nc = await connect({ servers: e.nats.url });
    try {
      const forged = actionEvent("default", e.extensionId, { action: "open", params: { url: "file:///etc/passwd" }, target_extension: e.extensionId, request_id: "file-2" });
      await nc.jetstream().publish(forged.subject, forged.data);
      expect(await waitResult(e, "file-2")).toMatchObject({ status: "error", code: "invalid_params" });
      // The executor refuses it too.
      const direct = await (await e.worker()).evaluate(() => globalThis.crumbs.execute({ type: "tab_new", params: { url: "file:///etc/passwd" } }));
      expect(direct).toMatchObject({ success: false, code: "invalid_params" });

      // An action claiming another owner, even on this owner's subject, is ignored.
      const page = await e.open("page2.html");
      const other = actionEvent("mallory", e.extensionId, { action: "click", params: { selector: { role: "button", name: "Press me" } }, target_extension: e.extensionId, request_id: "forged-1" });
      await nc.jetstream().publish(other.subject, other.data);
      // The worker read it and said so in the activity log the user sees.
      await waitFor(
        async () => ((await e.storage<Array<{ text: string }>>("crumbs.activity")) ?? []).some((a) => a.text.startsWith("ignored an action: owned by mallory")),
        { message: "the activity log's line for the forged action" },
      );
      expect(await resultsFor(e, "forged-1")).toHaveLength(0);
      expect(await entries((x) => x.request_id === "forged-1")).toEqual([]);
      expect(await page.evaluate(() => (window as { presses?: number }).presses ?? 0)).toBe(0);
    } finally {
      await nc.close();
    }
  });
});
