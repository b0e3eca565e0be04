import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { waitFor } from "@crumbs/testkit";
import { sendAction, waitResult } from "./e2e/actions.ts";
import { agentAnswer, chat, ofSession, openForAgent, startControlled } from "./e2e/control.ts";
import { TOKEN, type E2E } from "./e2e/stack.ts";

// What a user sees of the extension outside the page: the toolbar badge, the side panel's task card
// and its word for a tab crumbs cannot read, and the tab group of the tabs an agent opened.

let e: E2E;
let panel: Page;
beforeAll(async () => {
  ({ e, panel } = await startControlled());
});
afterAll(async () => {
  await e?.close();
});

/** Runs a function in the extension's service worker (chrome.* as the extension sees it). */
async function inWorker<T, A>(fn: (arg: A) => Promise<T>, arg: A): Promise<T> {
  return (await e.worker()).evaluate(fn as (arg: unknown) => Promise<T>, arg);
}
const badgeText = () => inWorker(() => chrome.action.getBadgeText({}), undefined);
const waitBadge = (text: string) => waitFor(async () => (await badgeText()) === text, { timeout: 20_000, message: `badge "${text}"` });
const tabIdOf = (url: string) => inWorker(async (u) => (await chrome.tabs.query({ url: u }))[0]?.id ?? -1, url);

describe("the agent's tabs and its task card", () => {
  it("opened tabs go into a Task(<id>) group, switching elsewhere is refused, and at the end the card and the group go at once", async () => {
    const other = await e.open("page2.html"); // a tab of the user's own
    const start = await openForAgent(e, "steps.html", "Next step");
    const [otherId, startId] = [await tabIdOf(e.url("page2.html")), await tabIdOf(e.url("steps.html"))];
    const opened = e.url("page2.html?by=agent");
    let release: () => void = () => {};
    const checked = new Promise<void>((r) => (release = r));
    e.fake.setScript(async (req) => {
      const results = req.body.messages.filter((m) => m.role === "tool").length;
      const call = (name: string, args: Record<string, unknown>) => ({ kind: "tools" as const, calls: [{ name, arguments: args }] });
      if (results === 0) return call("browser_tab_new", { url: opened });
      if (results === 1) {
        await checked; // the model "thinks" until the test has looked at the group
        return call("browser_tab_switch", { tab_id: otherId });
      }
      if (results === 2) return call("browser_tab_switch", { tab_id: startId });
      return { kind: "text", content: "Done: I looked at page two." };
    });
    const session = await chat(panel, "Open page two in a new tab");
    const card = panel.locator(`.task[data-session="${session}"][data-state="running"]`);

    const group = await waitFor(
      () =>
        inWorker(async (url) => {
          const [tab] = await chrome.tabs.query({ url });
          if (!tab || tab.groupId === chrome.tabGroups.TAB_GROUP_ID_NONE) return undefined;
          const g = await chrome.tabGroups.get(tab.groupId);
          const members = await chrome.tabs.query({ groupId: g.id });
          return { title: g.title, members: members.map((t) => t.url) };
        }, opened),
      { timeout: 20_000, message: "the opened tab in a group" },
    );
    const [action] = await ofSession(e, "browser.action.v1", session);
    const rootId = (action!.context.task as { root: { id: string } }).root.id;
    expect(group).toEqual({ title: `Task(${rootId.slice(0, 8)})`, members: [opened] });
    expect(await inWorker(async (ids) => Promise.all(ids.map(async (id) => (await chrome.tabs.get(id)).groupId)), [otherId, startId])).toEqual([-1, -1]);
    await card.waitFor();
    release();

    const answer = await agentAnswer(e, session, (b) => b.context.final === true);
    expect(answer.context.content).toBe("Done: I looked at page two.");
    // Gone with the answer, not half a minute later.
    await card.waitFor({ state: "detached", timeout: 5_000 });
    expect(await panel.locator("#tasks").isHidden()).toBe(true);
    await waitFor(() => inWorker(async (t) => (await chrome.tabGroups.query({ title: t })).length === 0, `Task(${rootId.slice(0, 8)})`), {
      timeout: 5_000,
      message: "the group taken apart",
    });
    expect(await inWorker(async (url) => (await chrome.tabs.query({ url })).map((t) => t.groupId), opened)).toEqual([-1]); // still open

    const switches = (await ofSession(e, "browser.action.v1", session)).filter((a) => a.context.action === "tab_switch");
    const results = await Promise.all(switches.map((a) => waitResult(e, String(a.context.request_id))));
    const byTab = new Map(switches.map((a, i) => [(a.context.params as { tab_id: number }).tab_id, results[i]!]));
    expect(byTab.get(otherId)).toMatchObject({
      status: "error",
      code: "blocked_by_policy",
      message: `tab ${otherId} is not one this task may use: an agent may switch only to the tab where its task started and the tabs it opened (tab_list shows them)`,
    });
    expect(byTab.get(startId)).toMatchObject({ status: "ok" });
    await Promise.all([other.close(), start.close()]);
  });
});

describe("a tab crumbs cannot read", () => {
  it("the side panel says what to do instead, and an action there is refused in the same words, not Chrome's", async () => {
    const blank = await e.context.newPage(); // about:blank, in front
    await blank.bringToFront();
    const notice = panel.locator("#this-tab");
    await notice.waitFor({ state: "visible", timeout: 10_000 });
    const words = "This tab is empty: there is no page for crumbs to read or act on. To use the agent here, open a web page (an http or https address) in this tab, or go to a tab that shows one, then ask again.";
    expect(await notice.innerText()).toBe(words);

    const { request_id } = await sendAction(e, { action: "snapshot", session: "s-blank" });
    const result = await waitResult(e, request_id);
    expect(result).toMatchObject({ status: "error", code: "blocked_by_policy", message: words });

    await blank.goto("chrome://version/");
    await waitFor(async () => (await notice.innerText()).includes("its own pages (chrome:)"), { timeout: 10_000, message: "chrome:// notice" });
    const page = await e.open("page2.html");
    await notice.waitFor({ state: "hidden", timeout: 10_000 });
    await Promise.all([blank.close(), page.close()]);
  });
});

describe("the toolbar badge", () => {
  it("says connected, counts actions awaiting confirmation, and names a missing API or NATS", async () => {
    await waitBadge("on");
    const icon = await inWorker(async () => (await fetch(chrome.runtime.getURL("icons/icon-16.png"))).status, undefined);
    expect(icon).toBe(200);

    const page = await e.open("page2.html");
    const waiting = await sendAction(e, { action: "open", params: { url: e.url("page2.html?next") }, risk: "high", session: "s-badge" });
    await waitBadge("1");
    expect(await inWorker(() => chrome.action.getTitle({}), undefined)).toBe("crumbs: connected; 1 action awaits your confirmation in the side panel");
    await panel.locator(`.confirmation[data-request-id="${waiting.request_id}"] button.deny`).click();
    expect((await waitResult(e, waiting.request_id)).code).toBe("blocked_by_policy");
    await waitBadge("on");

    await e.configure({ apiUrl: "http://127.0.0.1:9" });
    await waitBadge("API");
    await e.configure();
    await waitBadge("on");
    await e.configure({ natsWsUrl: "ws://127.0.0.1:9" });
    await waitBadge("NATS");
    await e.configure({ apiUrl: e.api.url, token: TOKEN, natsWsUrl: e.nats.wsUrl });
    await waitBadge("on");
    await page.close();
  });
});
