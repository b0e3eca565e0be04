import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness.ts";
import { fails, ok, refIn, snapshot } from "./actions-helpers.ts";

interface TabInfo {
  tab_id: number;
  url: string;
  title: string;
  active: boolean;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const list = async () => (await ok<{ tabs: TabInfo[] }>(h, "tab_list")).tabs;

describe("tab commands", () => {
  let first: TabInfo;

  it("tab_list names every tab with id, url, title and which is active", async () => {
    await h.openFixture("actions-hover.html");
    const tabs = await list();
    first = tabs.find((t) => t.url.endsWith("/actions-hover.html"))!;
    expect(first).toMatchObject({ title: "Actions: hover", active: true });
    expect(typeof first.tab_id).toBe("number");
    // the `tab` form (`params.action`)
    expect(await ok(h, "tab", { action: "list" })).toHaveProperty("tabs");
  });

  it("tab_new opens a loaded, active tab that the next snapshot sees", async () => {
    const tab = await ok<TabInfo>(h, "tab_new", { url: h.url("actions-wait.html") });
    expect(tab).toMatchObject({ title: "Actions: waiting 1", active: true });
    expect((await list()).find((t) => t.tab_id === tab.tab_id)?.active).toBe(true);
    expect(await snapshot(h)).toContain('button "Load results"');
  });

  it("open navigates the active tab and waits for the load", async () => {
    const tab = await ok<TabInfo>(h, "open", { url: h.url("actions-collections.html") });
    expect(tab).toMatchObject({ title: "Actions: collections and scrolling", url: h.url("actions-collections.html") });
    expect(await snapshot(h)).toContain('button "Load more"');
  });

  it("wait_for a URL survives a full navigation", async () => {
    await ok(h, "open", { url: h.url("actions-wait.html") });
    await ok(h, "click", { ref: refIn(await snapshot(h), 'link "Go to page 2"') });
    const data = await ok(h, "wait_for", { until: { url: "page=2" }, timeout_ms: 10_000 });
    expect(data).toMatchObject({ title: "Actions: waiting 2" });
  });

  it("wait_for a URL that changes by a navigation starting mid-wait", async () => {
    // The page navigates 300 ms after the click: the wait starts on the old document and ends on the new one.
    await ok(h, "click", { ref: refIn(await snapshot(h), 'button "Go to page 3 soon"') });
    const data = await ok(h, "wait_for", { until: { url: "page=3" }, timeout_ms: 10_000 });
    expect(data).toMatchObject({ title: "Actions: waiting 3" });
  });

  it("tab_switch activates a tab; tab_close removes one", async () => {
    const switched = await ok<TabInfo>(h, "tab_switch", { tab_id: first.tab_id });
    expect(switched).toMatchObject({ tab_id: first.tab_id, active: true });
    expect(await snapshot(h)).toContain('button "Products"');
    const extra = await ok<TabInfo>(h, "tab_new", { url: h.url("actions-keys.html") });
    await ok(h, "tab_close", { tab_id: extra.tab_id });
    expect((await list()).map((t) => t.tab_id)).not.toContain(extra.tab_id);
  });

  it("refuses unknown tabs, browser-internal and script URLs, and malformed params", async () => {
    await fails(h, "tab_switch", { tab_id: 987654 }, "not_found");
    await fails(h, "tab_close", { tab_id: 987654 }, "not_found");
    await fails(h, "tab_switch", {}, "invalid_params");
    await fails(h, "open", { url: "javascript:alert(1)" }, "blocked_by_policy");
    await fails(h, "open", { url: "chrome://settings" }, "blocked_by_policy");
    await fails(h, "open", { url: "not a url" }, "invalid_params");
    await fails(h, "open", { url: "file:///etc/passwd" }, "invalid_params");
    await fails(h, "tab_new", { url: "file:///etc/passwd" }, "invalid_params");
  });
});
