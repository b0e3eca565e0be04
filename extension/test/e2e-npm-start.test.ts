import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "nats";
import type { BrowserContext, Worker } from "playwright-core";
import { createTestDatabase, freePort, launchChromium, waitFor, type ChromiumWithExtension, type TestDatabase } from "@crumbs/testkit";
import { startStack, type RunningStack } from "@crumbs/cli";
import { createApi, type CrumbsApi } from "../src/shared/api-client.ts";
import { startFixtureServer, type FixtureServer } from "./fixture-server.ts";
import { distDir, ensureBuilt } from "./harness.ts";
import { act, resultsFor, sendAction } from "./e2e/actions.ts";
import type { E2E } from "./e2e/stack.ts";

// Only the bus commands the browser: the stack `npm start` runs (services/cli startStack) keeps
// NATS locked, so no TCP or WebSocket client gets in without credentials, not even a web page;
// the extension connects with credentials the API mints, and ignores another owner's actions.

let dir: string;
let db: TestDatabase;
let stack: RunningStack;
let browser: ChromiumWithExtension;
let pages: FixtureServer;
let worker: Worker;
let extensionId: string;
let client: CrumbsApi;

beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), "crumbs-npm-start-"));
  db = await createTestDatabase("crumbs_npm_start");
  const env = { DATABASE_URL: db.url, PORT: "0", CRUMBS_NATS_PORT: String(await freePort()), CRUMBS_NATS_WS_PORT: String(await freePort()), CRUMBS_TOKEN: "npm-start-token-0123" };
  stack = await startStack(env, dir, () => {});
  client = createApi({ apiUrl: stack.apiUrl, token: stack.token });
  pages = await startFixtureServer(join(import.meta.dirname, "e2e/pages"), async () => undefined);
  browser = await launchChromium({ extensionPath: distDir });
  const context: BrowserContext = browser.context;
  const isOurs = (w: Worker) => w.url().endsWith("/background.js");
  worker = context.serviceWorkers().find(isOurs) ?? (await context.waitForEvent("serviceworker", { predicate: isOurs, timeout: 30_000 }));
  extensionId = new URL(worker.url()).host;
  await worker.evaluate((s) => chrome.storage.local.set(s), { apiUrl: stack.apiUrl, token: stack.token, natsWsUrl: stack.natsWsUrl! });
  const natsState = async () => ((await worker.evaluate(async () => (await chrome.storage.local.get("crumbs.status"))["crumbs.status"])) as { nats?: { state?: string } } | undefined)?.nats?.state;
  await waitFor(async () => (await natsState()) === "connected", {
    timeout: 30_000,
    message: "extension connected to npm start's NATS",
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await pages?.close();
  await stack?.close();
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("npm start's NATS is locked", () => {
  it("refuses unauthenticated TCP and WebSocket clients (a web page too)", async () => {
    expect(stack.natsAuthDir).toBe(join(dir, ".crumbs", "nats", "auth"));
    const tcp = await connect({ servers: stack.natsUrl, reconnect: false }).then(
      async (nc) => (await nc.close(), "connected"),
      (e: unknown) => String(e),
    );
    expect(tcp).toMatch(/Authorization Violation/);

    // A page the user visits tries the WebSocket port directly.
    const page = await browser.context.newPage();
    await page.goto(`${pages.origin}/page2.html`);
    const answer = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url);
          ws.binaryType = "arraybuffer";
          let got = "";
          ws.onmessage = (m) => {
            got += typeof m.data === "string" ? m.data : new TextDecoder().decode(m.data as ArrayBuffer);
            if (got.startsWith("INFO") && !got.includes("CONNECT_SENT")) {
              got += "CONNECT_SENT";
              ws.send('CONNECT {"verbose":false,"protocol":1}\r\nPING\r\n');
            }
          };
          ws.onclose = () => resolve(got);
          ws.onerror = () => resolve(`${got} error`);
          setTimeout(() => resolve(`${got} (still open)`), 5_000);
        }),
      stack.natsWsUrl!,
    );
    expect(answer).toMatch(/-ERR 'Authorization Violation'/);
    expect(answer).not.toMatch(/PONG/);
    await page.close();
  });

  it("the extension runs its own owner's actions, with minted credentials, and ignores an action forged with another owner's credentials", async () => {
    const auth = await worker.evaluate(async () => (await chrome.storage.local.get("crumbs.natsAuth"))["crumbs.natsAuth"]);
    expect(auth).toMatchObject({ mode: "credentials" });
    const page = await browser.context.newPage();
    await page.goto(`${pages.origin}/page2.html`);
    const e = { client, extensionId } as unknown as E2E;
    expect((await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session: "s-own" }, 20_000)).status).toBe("ok");

    const res = await fetch(`${stack.apiUrl}/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
      body: JSON.stringify({ owner: "mallory", scopes: ["read", "write", "subscribe"] }),
    });
    const mallory = (await res.json()) as { token: string };
    const forged = await sendAction({ client: createApi({ apiUrl: stack.apiUrl, token: mallory.token }), extensionId } as unknown as E2E, {
      action: "click",
      params: { selector: { role: "button", name: "Press me" } },
      session: "s-own",
    });
    expect(forged.action.owner).toBe("mallory");
    // A legitimate action sent after the forged one: once it has run, the extension has taken in
    // what came before it, and the forged one did nothing (one press before, one now).
    expect((await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session: "s-own" }, 20_000)).status).toBe("ok");
    expect(await resultsFor(e, forged.request_id)).toHaveLength(0);
    expect(await resultsFor({ client: createApi({ apiUrl: stack.apiUrl, token: mallory.token }) } as unknown as E2E, forged.request_id)).toHaveLength(0);
    expect(await page.evaluate(() => (window as { presses?: number }).presses ?? 0)).toBe(2);
    await page.close();
  });
});
