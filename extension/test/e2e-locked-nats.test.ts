import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { act, resultsFor } from "./e2e/actions.ts";
import { startE2E, waitNatsConnected, type E2E } from "./e2e/stack.ts";

// The extension against a locked NATS (as docker compose ships it): it cannot connect without
// credentials, so it asks the API for its owner's extension credentials and runs its durable
// consumer with them. The API here is configured with the account seed.

let e: E2E;
beforeAll(async () => {
  e = await startE2E({ locked: true });
  await e.configure({ allowlist: ["127.0.0.1"] });
  await waitNatsConnected(e, 20_000);
});
afterAll(async () => {
  await e?.close();
});

describe("locked NATS", () => {
  it("the extension connects with minted credentials, and an action addressed to it runs and reports its result", async () => {
    const auth = await e.storage<{ mode: string; detail?: string; expires_at?: string; renew_at?: string }>("crumbs.natsAuth");
    expect(auth).toMatchObject({ mode: "credentials", detail: `owner default, consumer crumbs-ext-default-${e.extensionId}` });
    // Renewal is planned before the credentials expire.
    expect(Date.parse(auth.renew_at!)).toBeLessThan(Date.parse(auth.expires_at!));
    const page = await e.open("page2.html");
    const r = await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session: "s-locked" }, 20_000);
    expect(r, JSON.stringify(r)).toMatchObject({ status: "ok" });
    expect(await page.evaluate(() => (window as { presses?: number }).presses ?? 0)).toBe(1);
    expect(await resultsFor(e, r.request_id)).toHaveLength(1);
  });

  it("a restarted worker (MV3) fetches fresh credentials and still receives the actions sent while it was stopped", async () => {
    const before = await e.storage<{ expires_at: string }>("crumbs.natsAuth");
    const page = await e.open("page2.html");
    // The session starts on the tab the user is on; fix it before the worker stops, as
    // e2e-actions does. A freshly woken worker in headless Chromium cannot tell which of the
    // windows Playwright opened was focused last, and may pick the initial about:blank.
    expect((await act(e, { action: "snapshot", session: "s-locked-2" })).status).toBe("ok");
    await e.stopWorker();
    // JWT times have a one-second resolution: the fresh credentials must be minted a second later.
    await new Promise((r) => setTimeout(r, 1_100));
    const sent = act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session: "s-locked-2" }, 30_000);
    await e.worker();
    const r = await sent;
    expect(r, JSON.stringify(r)).toMatchObject({ status: "ok" });
    expect(await page.evaluate(() => (window as { presses?: number }).presses ?? 0)).toBe(1);
    const after = await e.storage<{ expires_at: string }>("crumbs.natsAuth");
    expect(Date.parse(after.expires_at)).toBeGreaterThan(Date.parse(before.expires_at));
  });
});
