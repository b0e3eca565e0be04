import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { captureCounts, livingContext, startE2E, TOKEN, triggerCapture, waitForContext, type E2E } from "./e2e/stack.ts";

// The living browser.page.context.v1 breadcrumb, as a new user sees it: set the options, open a
// page, and the context is there; switch tabs and navigate: same id, climbing version, also after
// the worker was stopped.

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
  await e.configure();
});
afterAll(async () => {
  await e?.close();
});

const ctx = (b: { context: Record<string, unknown> }) => b.context as {
  url: string;
  title: string;
  domain: string;
  content: { headings: string[] };
  snapshot: { text: string; refs: number };
  session: { tabId: number };
};

describe("page-context tracker", () => {
  let firstId = "";

  it("opening a page gives the living breadcrumb within a second, with url, title, headings and snapshot", async () => {
    await fetch(e.url("gen/app.js")); // bundle the page's React once, outside the measurement
    const page = await e.context.newPage();
    await page.goto(e.url("app.html"), { waitUntil: "load" });
    const loaded = Date.now();
    const b = await waitForContext(e, (b) => ctx(b).url === e.url("app.html") && ctx(b).content?.headings?.length > 0, "context of app.html", 3_000);
    const elapsed = Date.now() - loaded;
    console.log(`context ${elapsed} ms after the load event (v${b.version})`);
    expect(elapsed).toBeLessThan(1_000);
    firstId = b.id;
    expect(b.schema_name).toBe("browser.page.context.v1");
    expect(b.key).toBe(`browser.page.context:${e.extensionId}`);
    expect(b.tags).toEqual(expect.arrayContaining(["browser:context", "browser:active-tab", `extension:${e.extensionId}`, "url:127.0.0.1"]));
    expect(b.title).toBe("Browser: Crumbs shop");
    expect(ctx(b).content.headings).toEqual(["Crumbs shop", "Welcome"]);
    expect(ctx(b).snapshot.text).toMatch(/button "Show details" \[ref=e\d+\]/);
    expect(ctx(b).snapshot.refs).toBeGreaterThan(2);
  });

  it("the llm view has the snapshot, the pcd and the page fields, each fact once, without session ids", async () => {
    const b = (await livingContext(e))!;
    const res = await fetch(`${e.api.url}/v1/breadcrumbs/${b.id}?view=llm`, { headers: { authorization: "Bearer e2e-token-0123456789" } });
    const view = (await res.json()) as Record<string, unknown>;
    expect(view.summary).toMatch(/Crumbs shop/);
    expect(JSON.stringify(view.snapshot)).toContain("Show details");
    const pcd = view.pcd as { title: string; actions: Array<{ label: string; kind?: string }>; forms: Array<{ fields: Array<{ label: string }> }> };
    expect(pcd.title).toBe("Crumbs shop");
    expect(pcd.actions).toEqual(expect.arrayContaining([expect.objectContaining({ label: "Place order", kind: "submit" }), expect.objectContaining({ label: "Show details" })]));
    expect(pcd.forms.flatMap((f) => f.fields.map((x) => x.label))).toEqual(["Your name"]);
    // The headings, links and text are the snapshot's; the interactive elements its refs.
    expect(view.content).toBeUndefined();
    expect(view.dom).toBeUndefined();
    expect(JSON.stringify(view)).not.toContain('"tabId"');
  });

  it("navigating and switching tabs: same id, version climbs", async () => {
    const before = (await livingContext(e))!;
    const page2 = await e.open("page2.html");
    const b2 = await waitForContext(e, (b) => ctx(b).url.endsWith("/page2.html"), "context of page2");
    expect(b2.id).toBe(firstId);
    expect(b2.version).toBeGreaterThan(before.version);
    expect(ctx(b2).content.headings).toEqual(["Second page", "Reviews"]);

    const [appTab] = e.context.pages().filter((p) => p.url().endsWith("/app.html"));
    await appTab!.bringToFront();
    const b3 = await waitForContext(e, (b) => ctx(b).url.endsWith("/app.html"), "context back on app.html");
    expect(b3.id).toBe(firstId);
    expect(b3.version).toBeGreaterThan(b2.version);

    await page2.bringToFront();
    await page2.click("text=Back to the shop");
    const b4 = await waitForContext(e, (b) => ctx(b).url.endsWith("/app.html") && ctx(b).session.tabId !== ctx(b3).session.tabId, "navigation in tab 2");
    expect(b4.version).toBeGreaterThan(b3.version);
  });

  it("a single-page-app URL change (pushState) and a DOM change update it; an unchanged page does not", async () => {
    const page = e.context.pages().find((p) => p.url().endsWith("/app.html"))!;
    await page.bringToFront();
    await waitForContext(e, (b) => ctx(b).session.tabId !== undefined && ctx(b).url === page.url(), "front tab");
    // A capture of the unchanged page finds nothing to write. Settle first: ask for captures until
    // one finds the page as last written (the tab switch's own triggers may still be writing).
    const settled = (await captureCounts(e)).unchanged;
    await waitFor(
      async () => {
        if ((await captureCounts(e)).unchanged > settled) return true;
        await triggerCapture(e);
        return false;
      },
      { message: "a capture that found the page unchanged", interval: 250 },
    );
    // Then the one under test, run after the version is read: with the unchanged check off it would
    // write and never count.
    const quiet = (await livingContext(e))!;
    const before = (await captureCounts(e)).unchanged;
    await triggerCapture(e);
    await waitFor(async () => (await captureCounts(e)).unchanged > before, { message: "the capture under test" });
    expect((await livingContext(e))!.version).toBe(quiet.version);

    await page.click("text=Show details");
    const b = await waitForContext(e, (b) => ctx(b).url.endsWith("?view=details") && ctx(b).content.headings.includes("Details"), "pushState context");
    expect(b.title).toBe("Browser: Crumbs shop - details");

    await page.evaluate(() => {
      const list = document.createElement("ul");
      for (let i = 0; i < 12; i++) list.append(Object.assign(document.createElement("li"), { textContent: `Late item ${i}` }));
      document.body.append(list);
    });
    await waitForContext(e, (b) => ctx(b).snapshot.text.includes("Late item 11"), "DOM change context");
  });

  it("the same breadcrumb after the worker is stopped and started again", async () => {
    const before = (await livingContext(e))!;
    await (await e.worker()).evaluate(() => ((globalThis as { marker?: number }).marker = 1));
    await e.stopWorker();
    const page = await e.open("page2.html"); // a tab event wakes a fresh worker
    expect(await (await e.worker()).evaluate(() => (globalThis as { marker?: number }).marker)).toBeUndefined();
    const after = await waitForContext(e, (b) => ctx(b).session.tabId !== ctx(before).session.tabId && ctx(b).url.endsWith("/page2.html"), "context after restart");
    expect(after.id).toBe(before.id);
    expect(after.version).toBeGreaterThan(before.version);
    const all = await e.client.list({ schema_name: "browser.page.context.v1" });
    expect(all).toHaveLength(1);
    await page.close();
  });

  it("restricted pages are skipped: the last page's context stays", async () => {
    const before = (await livingContext(e))!;
    const page = await e.context.newPage();
    await page.goto("chrome://version").catch(() => {});
    // Back to a page it may read: once that page's context is written, the tracker has handled the
    // restricted tab before it, and no version in between is of chrome://version.
    const normal = await e.open("page2.html");
    const after = await waitForContext(e, (b) => b.version > before.version && ctx(b).url.endsWith("/page2.html"), "context of the next normal page");
    const res = await fetch(`${e.api.url}/v1/breadcrumbs/${after.id}/history?limit=500`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const versions = ((await res.json()) as { items: { version: number; context: { url: string } }[] }).items.filter((v) => v.version > before.version);
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.map((v) => v.context.url).filter((u) => !u.startsWith("http"))).toEqual([]);
    await normal.close();
    await page.close();
  });
});
