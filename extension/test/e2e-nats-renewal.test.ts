import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { act } from "./e2e/actions.ts";
import { natsState, startE2E, waitNatsConnected, type E2E } from "./e2e/stack.ts";

// The NATS credentials' renewal while the worker stays up ("NATS credentials" in docs/extension.md):
// a locked nats-server drops a connection whose user JWT has expired, so the worker must fetch new
// credentials and connect with them before that moment. The extension asks the API for
// credentials that live 60 s (`natsCredentialsTtl`, sent as the request's `ttl_seconds`; 60 s is the
// API's shortest), renews a fifth early, and must still run actions after the first ones expired.

const TTL_S = 60;

interface AuthState {
  mode: string;
  expires_at?: string;
  renew_at?: string;
}
interface ActivityEntry {
  at: string;
  kind: string;
  text: string;
}

let e: E2E;
beforeAll(async () => {
  e = await startE2E({ locked: true });
  await e.configure({ allowlist: ["127.0.0.1"], natsCredentialsTtl: TTL_S });
  await waitNatsConnected(e, 20_000);
});
afterAll(async () => {
  await e?.close();
});

describe("NATS credentials renewal", () => {
  it("the running worker connects with fresh credentials before the old ones expire, and keeps receiving actions after they did", async () => {
    const first = await e.storage<AuthState>("crumbs.natsAuth");
    expect(first.mode).toBe("credentials");
    const expiresAt = Date.parse(first.expires_at!);
    const renewAt = Date.parse(first.renew_at!);
    // The lifetime asked for is the one minted (JWT times have a one-second resolution).
    expect(expiresAt - Date.now()).toBeGreaterThan((TTL_S - 5) * 1000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(TTL_S * 1000);
    expect(renewAt).toBeLessThan(expiresAt);

    const page = await e.open("page2.html");
    // The session starts on the tab the user is on (as in e2e-locked-nats).
    expect((await act(e, { action: "snapshot", session: "s-renew" }, 20_000)).status).toBe("ok");
    // A mark in the worker's global scope: still there at the end means the same worker ran throughout,
    // so the new credentials came from its timer, not from a restarted worker.
    const worker = await e.worker();
    await worker.evaluate(() => ((globalThis as { renewalMark?: number }).renewalMark = 1));

    const renewed = await waitFor(
      async () => {
        const now = await e.storage<AuthState>("crumbs.natsAuth");
        return now.expires_at !== first.expires_at ? { auth: now, seenAt: Date.now() } : undefined;
      },
      { timeout: TTL_S * 1000, interval: 250, message: "new NATS credentials" },
    );
    // Fresh credentials in place before the first ones expired: renewed by the timer, not after the server dropped it.
    expect(renewed.seenAt).toBeLessThan(expiresAt);
    expect(Date.parse(renewed.auth.expires_at!)).toBeGreaterThan(expiresAt);

    // Past the first credentials' expiry, an action written now still reaches the worker and runs.
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 2_000));
    const r = await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session: "s-renew" }, 20_000);
    expect(r, JSON.stringify(r)).toMatchObject({ status: "ok" });
    expect(await page.evaluate(() => (window as { presses?: number }).presses ?? 0)).toBe(1);

    expect(await worker.evaluate(() => (globalThis as { renewalMark?: number }).renewalMark)).toBe(1);
    const log = await e.storage<ActivityEntry[]>("crumbs.activity");
    const connection = log.filter((l) => l.kind === "connection");
    const renewing = connection.filter((l) => l.text === "renewing the NATS credentials");
    expect(renewing.length).toBeGreaterThanOrEqual(1);
    expect(Date.parse(renewing[0]!.at)).toBeLessThan(expiresAt);
    // The connection was replaced, never lost.
    expect(connection.filter((l) => /lost/.test(l.text))).toEqual([]);
    expect(await natsState(e)).toBe("connected");
  }, (TTL_S + 60) * 1000);
});
