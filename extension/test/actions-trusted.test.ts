import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { fails, ok, pageVar, run } from "./actions-helpers.ts";

// Trusted-input mode: on a page whose controls answer only events with isTrusted (fixtures/actions-trusted.html),
// the default synthetic input changes nothing and the results say so; once the user lists the site in the
// options page, the same actions go through chrome.debugger and the page takes them. The debugger is attached
// only while an action runs.

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.openFixture("actions-trusted.html");
});
afterAll(async () => {
  await h?.close();
});

const status = () => page.locator("#status").textContent();

/** Tabs the extension's debugger is attached to now (Chrome's "started debugging" banner shows on each). */
const debuggedTabs = () => h.worker.evaluate(() => globalThis.crumbs.debuggedTabs().length);

/** Lists the sites in the options page, as the user does. */
async function setTrustedSites(sites: string): Promise<void> {
  const extensionId = new URL(h.worker.url()).host;
  const options = await h.context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await options.locator("#trustedInput").fill(sites);
  await options.locator("#save-trusted").click();
  await options.locator("#trusted-message.ok").waitFor();
  await options.close();
  await page.bringToFront();
}

describe("a page that answers only trusted input", () => {
  it("without trusted input: fill fails saying the page put the value back, and a click says nothing changed", async () => {
    const message = await fails(h, "fill", { selector: { role: "textbox", name: "Name" }, value: "Alice" }, "not_actionable");
    expect(message).toMatch(/did not keep "Alice"/);
    expect(message).toContain("turn on trusted input for 127.0.0.1 in the crumbs options page");

    const click = await ok(h, "click", { selector: { role: "button", name: "Save" } });
    expect(click).toMatchObject({ clicked: 'button "Save"', page_changed: false });
    expect(click.note).toMatch(/nothing on the page changed .*trusted input for 127\.0\.0\.1/);
    expect(await status()).toBe("Not saved");
    expect(await pageVar<string[]>(page, "events")).toEqual(expect.arrayContaining(["input:false", "click:false"]));
    expect(await debuggedTabs()).toBe(0);
  });

  it("with the site listed in the options page: fill, type, press and click reach the page as trusted input", async () => {
    await setTrustedSites("127.0.0.1");
    expect(await ok(h, "fill", { selector: { role: "textbox", name: "Name" }, value: "Alice" })).toMatchObject({ input: "trusted", value: "Alice" });
    expect(await ok(h, "type", { selector: { role: "textbox", name: "Name" }, value: " Li" })).toMatchObject({ input: "trusted", value: "Alice Li" });
    expect(await ok(h, "press", { selector: { role: "textbox", name: "Name" }, key: "Enter" })).toMatchObject({ input: "trusted" });
    expect(await status()).toBe("Submitted Alice Li");

    const click = await ok(h, "click", { selector: { role: "button", name: "Save" } });
    expect(click).toEqual({ clicked: 'button "Save"', input: "trusted" });
    expect(await status()).toBe("Saved Alice Li");
    const events = await pageVar<string[]>(page, "events");
    expect(events.slice(events.lastIndexOf("click:false") + 1), events.join(" ")).toSatisfy((list: string[]) => list.every((e) => e.endsWith(":true")));
  });

  it("the debugger is attached while a trusted action runs and detached when it ends", async () => {
    const typing = run(h, "type", { selector: { role: "textbox", name: "Name" }, value: "abcdefghij", delay: 200 });
    await expect.poll(debuggedTabs, { timeout: 5_000 }).toBe(1);
    expect(await typing).toMatchObject({ success: true, data: { input: "trusted" } });
    expect(await debuggedTabs()).toBe(0);
  });

  it("Stop in the side panel detaches the debugger at once, and the typing action ends cancelled", async () => {
    await page.locator("#name").fill("");
    const tabId = await h.worker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]!.id!, page.url());
    // The session whose task acts on this tab (as the worker records it when a task's first action arrives).
    await h.worker.evaluate(
      (scope) => chrome.storage.local.set({ "crumbs.scopes": { "s-stop": scope } }),
      { start: tabId, tabs: [tabId], current: tabId, sites: [], at: new Date().toISOString() },
    );
    const typing = run(h, "type", { selector: { role: "textbox", name: "Name" }, value: "abcdefghijklmnopqrst", delay: 150 });
    await expect.poll(debuggedTabs, { timeout: 5_000 }).toBe(1);
    await expect.poll(() => page.locator("#name").inputValue()).toMatch(/^ab/);
    const panel = await h.context.newPage();
    await panel.goto(`chrome-extension://${new URL(h.worker.url()).host}/sidepanel.html`);
    expect(await panel.evaluate(() => chrome.runtime.sendMessage({ kind: "crumbs:stop", session: "s-stop" }))).toMatchObject({ ok: true });
    expect(await debuggedTabs()).toBe(0);
    expect(await typing).toMatchObject({ success: false, code: "cancelled" });
    expect((await page.locator("#name").inputValue()).length).toBeLessThan(20);
    await panel.close();
    await page.bringToFront();
  });

  it("a site taken off the list is back to synthetic input", async () => {
    await setTrustedSites("");
    const click = await ok(h, "click", { selector: { role: "button", name: "Save" } });
    expect(click).toMatchObject({ page_changed: false });
    expect(click.input).toBeUndefined();
  });
});
