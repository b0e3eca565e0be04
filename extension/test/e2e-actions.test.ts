import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { act, refIn, resultsFor, sendAction, waitResult } from "./e2e/actions.ts";
import { extensionConsumerName, STREAM_NAME } from "@crumbs/schemas";
import { waitFor, waitForConsumerDrained } from "@crumbs/testkit";
import { natsState, startE2E, waitNatsConnected, type E2E } from "./e2e/stack.ts";

// The action loop over nats.ws: actions addressed to this extension run once and report a
// browser.action.result.v1; the allowlist, the tab restriction and confirmations hold; actions
// written while NATS or the worker was down run once when they are back.

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
  await e.configure({ allowlist: ["127.0.0.1"] });
  await waitNatsConnected(e, 15_000);
});
afterAll(async () => {
  await e?.close();
});

/** The extension's consumer has every action it was handed acked: none can be redelivered. */
const actionsAcked = (e: E2E) => waitForConsumerDrained(e.nats.url, STREAM_NAME, extensionConsumerName("default", e.extensionId));
const presses = async (page: import("playwright-core").Page) => page.evaluate(() => (window as { presses?: number }).presses ?? 0);

describe("action loop", () => {
  it("a click on a ref changes the page and reports ok with the new url", async () => {
    const page = await e.open("app.html");
    const snap = await act(e, { action: "snapshot", session: "s-click" });
    expect(snap.status).toBe("ok");
    const text = String(snap.data?.text);
    const r = await act(e, { action: "click", params: { ref: refIn(text, 'button "Show details"') }, session: "s-click" });
    expect(r).toMatchObject({ status: "ok", observation: { url: e.url("app.html?view=details"), url_changed: true } });
    await page.getByText("Shipping takes two days.").waitFor();
    const results = await resultsFor(e, r.request_id);
    expect(results).toHaveLength(1);
    expect(results[0]!.tags).toEqual(expect.arrayContaining([`extension:${e.extensionId}`, "session:s-click"]));
  });

  it("the mask covers the agent's tab while it acts, and goes away after", async () => {
    const page = await e.open("page2.html");
    const pending = act(e, { action: "wait_for", params: { until: { text: "never shown" }, timeout_ms: 2_500 }, session: "s-mask" });
    await page.locator("crumbs-mask").waitFor({ state: "attached", timeout: 5_000 });
    // The snapshot (run after the wait, while the mask lingers) does not list the mask.
    const snap = await act(e, { action: "snapshot", session: "s-mask-2" });
    expect(String(snap.data?.text)).not.toContain("Agent is acting");
    expect((await pending).code).toBe("timeout");
    await page.locator("crumbs-mask").waitFor({ state: "detached", timeout: 5_000 });
    await page.close();
  });

  it("a write on a host outside the allowlist is blocked_by_policy and does not happen", async () => {
    const page = await e.open("page2.html", { other: true });
    const r = await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session: "s-policy" });
    expect(r).toMatchObject({ status: "error", code: "blocked_by_policy" });
    expect(r.message).toMatch(/localhost.*allowlist/);
    expect(await presses(page)).toBe(0);
    // Reading is still allowed there.
    expect((await act(e, { action: "get", params: { what: "title" }, session: "s-policy" })).status).toBe("ok");
    await page.close();
  });

  it("an agent may not act on a tab it did not open or start on", async () => {
    const page = await e.open("page2.html");
    const other = await e.open("page2.html");
    const list = await act(e, { action: "tab_list", session: "s-tabs" });
    const tabs = (list.data?.tabs ?? []) as Array<{ tab_id: number; url: string }>;
    expect(tabs).toHaveLength(1); // only the tab the session started on
    const mine = tabs[0]!.tab_id;
    const all = await act(e, { action: "tab_list", session: "s-other" }); // another session, started on the same tab
    expect((all.data?.tabs as unknown[]).length).toBe(1);
    await page.bringToFront();
    const sessionTabs = await (await e.worker()).evaluate(() => chrome.tabs.query({}));
    const foreign = sessionTabs.find((t) => t.id !== mine && t.url?.endsWith("/page2.html"))!.id!;
    const r = await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, tab_id: foreign, session: "s-tabs" });
    expect(r).toMatchObject({ status: "error", code: "blocked_by_policy" });
    expect(await presses(page)).toBe(0);
    const opened = await act(e, { action: "tab_new", params: { url: e.url("page2.html") }, session: "s-tabs" });
    expect(opened.status).toBe("ok");
    const newTab = opened.data?.tab_id as number;
    const ok = await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, tab_id: newTab, session: "s-tabs" });
    expect(ok.status).toBe("ok");
    await other.close();
  });

  it("NATS restarted in the middle: actions written while it was down run once when it is back", async () => {
    const page = await e.open("page2.html");
    const session = "s-outage";
    expect((await act(e, { action: "snapshot", session })).status).toBe("ok");
    await e.nats.stop();
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await sendAction(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session }));
    // The worker itself reports the bus gone: it has no way to receive them.
    await waitFor(async () => (await natsState(e)) !== "connected", { timeout: 15_000, message: "the worker to see NATS gone" });
    expect(await presses(page)).toBe(0);
    await e.nats.start();
    for (const s of sent) expect((await waitResult(e, s.request_id, 30_000)).status).toBe("ok");
    // A fourth action, sent after them: once it ran and everything is acked, no redelivery can come.
    expect((await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session })).status).toBe("ok");
    await actionsAcked(e);
    expect(await presses(page)).toBe(4);
    for (const s of sent) expect(await resultsFor(e, s.request_id)).toHaveLength(1);
  });

  it("an action sent while the worker is stopped runs once when it starts again", async () => {
    const page = await e.open("page2.html");
    const session = "s-worker";
    expect((await act(e, { action: "snapshot", session })).status).toBe("ok");
    let t = Date.now();
    await e.stopWorker();
    const stopMs = Date.now() - t;
    const s = await sendAction(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session });
    expect(await presses(page)).toBe(0); // nobody runs it while the worker is stopped (stopWorker waited for that)
    t = Date.now();
    await e.worker(); // wakes it, as the keepalive alarm would within 30 s
    const wakeMs = Date.now() - t;
    expect((await waitResult(e, s.request_id, 30_000)).status).toBe("ok");
    console.log(`worker stop ${stopMs} ms, wake ${wakeMs} ms, result ${Date.now() - t} ms after wake`);
    // An action sent after it: once it ran, a second run of the first would have come before it.
    expect((await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session })).status).toBe("ok");
    await actionsAcked(e);
    expect(await presses(page)).toBe(2);
    expect(await resultsFor(e, s.request_id)).toHaveLength(1);
  });

  it("a redelivered or repeated request_id is not run again", async () => {
    const page = await e.open("page2.html");
    const session = "s-dup";
    const first = await sendAction(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session });
    await waitResult(e, first.request_id);
    // Same request_id in a second breadcrumb: an agent's retry.
    const { schema_name, title, tags, context } = first.action;
    await e.client.create({ schema_name, title, tags, context });
    // A new request after the repeat: once it ran, the repeat had been seen (and skipped) before it.
    expect((await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session })).status).toBe("ok");
    expect(await presses(page)).toBe(2);
    expect(await resultsFor(e, first.request_id)).toHaveLength(1);
  });
});
