import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { startHarness, type Harness } from "./harness.ts";

// The settings (the API token among them) live in chrome.storage.local, which Chrome exposes to
// content scripts by default; a content script runs in the page's renderer process, so a page that
// compromises its renderer would read the token. The worker restricts storage.local to the
// extension's own pages and worker. Checked from inside the content script's isolated world, the
// very context the restriction is about.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("the token in chrome.storage.local", () => {
  it("is readable by the worker and the options page, not by a content script", async () => {
    const token = "crumbs_secret_token_for_the_storage_test";
    await h.worker.evaluate((t) => chrome.storage.local.set({ token: t, apiUrl: "http://127.0.0.1:9" }), token);
    expect(await h.worker.evaluate(() => chrome.storage.local.get("token"))).toEqual({ token });

    const page = await h.openFixture("actions-forms.html");
    const cdp = await h.context.newCDPSession(page);
    const worlds: { id: number; origin: string; type: string }[] = [];
    cdp.on("Runtime.executionContextCreated", (e: { context: { id: number; origin: string; auxData?: { type?: string } } }) =>
      worlds.push({ id: e.context.id, origin: e.context.origin, type: e.context.auxData?.type ?? "" }),
    );
    await cdp.send("Runtime.enable");
    // `new URL(...).origin` of a chrome-extension: URL is "null" in Node (not a special scheme).
    const extOrigin = /^chrome-extension:\/\/[^/]+/.exec(h.worker.url())![0];
    const world = await waitFor(() => worlds.find((w) => w.type === "isolated" && w.origin === extOrigin), {
      message: "the content script's isolated world",
    });
    const read = (expression: string) =>
      cdp.send("Runtime.evaluate", { expression, contextId: world.id, awaitPromise: true, returnByValue: true });
    // The content script itself works: chrome.runtime is there.
    expect((await read("typeof chrome.runtime.sendMessage")).result.value).toBe("function");
    // storage.local is not: no API object at all, or a refusal; never the token.
    const got = await read(
      `(async () => { try { return JSON.stringify(await chrome.storage.local.get(null)); } catch (e) { return "refused: " + e.message; } })()`,
    );
    const value = String(got.result.value ?? got.exceptionDetails?.exception?.description ?? "");
    expect(value).not.toContain(token);
    expect(value).toMatch(/refused|undefined|denied|Cannot read/i);
    await cdp.detach();
    await page.close();
    // The options page, where the user enters it, still reads it.
    const options = await h.context.newPage();
    await options.goto(`${extOrigin}/options.html`);
    expect(await options.evaluate(() => chrome.storage.local.get("token"))).toEqual({ token });
    await options.close();
  });
});
