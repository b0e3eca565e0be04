import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrumbsHttp } from "@crumbs/agent-sdk";
import { PAGE_ASSISTANT_FILE } from "@crumbs/agent-definitions";
import { waitFor } from "@crumbs/testkit";
import { captureCounts, leaseInterest, livingContext, startE2E, TOKEN, waitForContext, type E2E } from "./e2e/stack.ts";

// The extension reads the page only while someone listens: a live browser.context.interest.v1
// lease. This stack's runner hosts no agent, so nobody does until a test writes a lease or loads
// the page assistant (whose runner then holds one). The side panel says which.

let e: E2E;
let panel: Page;
let page: Page;
beforeAll(async () => {
  // Locked: owner accounts, as docker compose and `crumbs start` run it; the credentials name the owner.
  e = await startE2E({ pageAssistant: false, locked: true });
  await e.configure();
  panel = await e.extensionPage("sidepanel.html");
  await panel.locator('[data-part="NATS"][data-state="connected"]').waitFor({ timeout: 15_000 });
});
afterAll(async () => {
  await e?.close();
});

const PAUSED = "Page context: paused — no agent is listening";
const interestRow = () => panel.locator('[data-part="interest"]');
const panelSays = (text: string) => waitFor(async () => (await interestRow().textContent()) === text, { timeout: 10_000, message: `side panel: ${text}` });
const url = (b: { context: Record<string, unknown> }) => String(b.context.url);

/**
 * Changes the page `n` times (its title and a dozen new elements each), and after each one waits
 * until the worker's tracker has run for it: a title change is one of its triggers, so the run that
 * follows has seen the change. Returns how many of those runs read the page.
 */
async function mutate(n: number, tag: string): Promise<number> {
  const start = await captureCounts(e);
  for (let i = 0; i < n; i++) {
    const before = await captureCounts(e);
    await page.evaluate(
      ([t, k]) => {
        document.title = `Long article ${t} ${k}`;
        const list = document.createElement("ul");
        for (let j = 0; j < 12; j++) list.append(Object.assign(document.createElement("li"), { textContent: `${t} item ${k}.${j}` }));
        document.body.append(list);
      },
      [tag, i] as const,
    );
    await waitFor(async () => {
      const now = await captureCounts(e);
      return now.captures + now.paused > before.captures + before.paused;
    }, { timeout: 10_000, message: `the tracker ran after change ${i}` });
  }
  return (await captureCounts(e)).captures - start.captures;
}

const N = 10;

describe("page context only while someone listens", () => {
  it("with no lease the page is not read: the panel says paused, and N page changes capture nothing", async () => {
    await panelSays(PAUSED);
    page = await e.open("article.html");
    const captured = await mutate(N, "unheard");
    console.log(`no listener: ${captured} captures over ${N} page changes`);
    expect(captured).toBe(0);
    expect((await captureCounts(e)).captures).toBe(0);
    // Nothing written at all: the NATS credentials told the worker its owner.
    expect(await livingContext(e)).toBeUndefined();
  });

  it("a lease makes it capture at once, and its first write creates the breadcrumb", async () => {
    const lease = await leaseInterest(e, { label: "test: e2e" });
    const b = await waitForContext(e, (b) => url(b) === e.url("article.html"), "context of article.html after the lease");
    expect(b.version).toBe(1);
    await panelSays("Page context: shared with test: e2e");
    const captured = await mutate(N, "heard");
    console.log(`one listener: ${captured} captures over ${N} page changes`);
    expect(captured).toBeGreaterThan(0);
    await waitForContext(e, (b) => String(b.context.title) === `Long article heard ${N - 1}`, "the last change captured");

    // Deleted: the panel says paused and changes are read no more.
    await lease.release();
    await panelSays(PAUSED);
    const version = (await livingContext(e))!.version;
    expect(await mutate(3, "released")).toBe(0);
    expect((await livingContext(e))!.version).toBe(version);
  });

  it("a lease that runs out stops the captures by itself", async () => {
    await leaseInterest(e, { label: "test: short", ttlSeconds: 2, renew: false });
    await panelSays("Page context: shared with test: short");
    await waitForContext(e, (b) => String(b.context.title).startsWith("Long article released"), "captured while the short lease lives");
    await panelSays(PAUSED);
    const version = (await livingContext(e))!.version;
    expect(await mutate(3, "expired")).toBe(0);
    expect((await livingContext(e))!.version).toBe(version);
  });

  it("a runner hosting a page-context agent makes it capture with no lease of the test's", async () => {
    const http = new CrumbsHttp({ url: e.api.url, token: TOKEN });
    const def = await http.create(JSON.parse(await readFile(PAGE_ASSISTANT_FILE, "utf8")));
    await panelSays("Page context: shared with runner: 1 agent");
    await waitForContext(e, (b) => String(b.context.title).startsWith("Long article expired"), "captured for the runner");
    expect(await mutate(2, "runner")).toBeGreaterThan(0);
    // Unloaded: the runner deletes its lease.
    await http.delete(def.id);
    await panelSays(PAUSED);
  });
});
