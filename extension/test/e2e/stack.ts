import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page, Worker } from "playwright-core";
import { createNatsTrust, loadApiConfig, mintRunnerUser, startApi, type RunningApi } from "@crumbs/api";
import { lockedServerConfig } from "@crumbs/api/testing";
import { startRunner, type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { NatsServer, createTestDatabase, launchChromium, waitFor, type TestDatabase } from "@crumbs/testkit";
import { FakeOpenAI } from "@crumbs/testkit";
import { PAGE_ASSISTANT_FILE } from "@crumbs/agent-definitions";
import { CrumbsHttp, InterestLease } from "@crumbs/agent-sdk";
import { createApi, type Breadcrumb, type CrumbsApi } from "../../src/shared/api-client.ts";
import { startFixtureServer, type FixtureServer } from "../fixture-server.ts";
import { bundleClient } from "../generated-pages.ts";
import { distDir, ensureBuilt } from "../harness.ts";

// The whole stack for the end-to-end tests: nats-server with WebSocket, a fresh Postgres database,
// the API, the runner with the page-assistant agent on a fake model, and Chromium with the built
// extension, configured the way the options page does it.

const here = dirname(fileURLToPath(import.meta.url));
export const TOKEN = "e2e-token-0123456789";


export interface E2E {
  nats: NatsServer;
  db: TestDatabase;
  api: RunningApi;
  fake: FakeOpenAI;
  runner: Runner;
  client: CrumbsApi;
  pages: FixtureServer;
  context: BrowserContext;
  extensionId: string;
  /** The extension's service worker now (a stopped worker comes back as a new one). */
  worker(): Promise<Worker>;
  /** Stops the extension's service worker, as Chrome does to an idle MV3 worker. */
  stopWorker(): Promise<void>;
  configure(extra?: Record<string, unknown>): Promise<void>;
  storage<T = unknown>(key: string): Promise<T>;
  open(path: string, opts?: { other?: boolean }): Promise<Page>;
  url(path: string, opts?: { other?: boolean }): string;
  /** A page of the extension itself (sidepanel.html, options.html), opened in a tab. */
  extensionPage(name: string): Promise<Page>;
  close(): Promise<void>;
}

const isOurs = (w: Worker) => w.url().startsWith("chrome-extension://") && w.url().endsWith("/background.js");

export interface E2EOptions {
  /**
   * A locked nats-server (decentralized JWT auth, as docker compose ships it): the API mints
   * per-owner credentials, the runner uses its own .creds, the extension must ask for its own.
   */
  locked?: boolean;
  /**
   * Load the page-assistant agent into the runner (default true). The runner holds a page-interest
   * lease while it hosts it, so the extension captures; without it nobody listens until a test
   * writes a lease (leaseInterest).
   */
  pageAssistant?: boolean;
}

export async function startE2E(opts: E2EOptions = {}): Promise<E2E> {
  ensureBuilt();
  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    const trust = opts.locked ? createNatsTrust() : undefined;
    const [nats, db, fake, pages] = await Promise.all([
      NatsServer.start({ websocket: true, ...(trust ? { extraConfig: (dir: string) => lockedServerConfig(trust, dir) } : {}) }),
      createTestDatabase("crumbs_ext_e2e"),
      FakeOpenAI.start(),
      startFixtureServer(join(here, "pages"), async (name) => {
        // A page's React app: e2e/<name>.client.js, bundled once.
        if (name === "app.js" || name === "store.js") {
          return { body: await bundleClient(join(here, name.replace(/\.js$/, ".client.js"))), type: "text/javascript; charset=utf-8" };
        }
        // The page whose controls answer only trusted events: the actions tests' fixture, served here too.
        if (name === "trusted.html") {
          return { body: await readFile(join(here, "..", "fixtures", "actions-trusted.html"), "utf8"), type: "text/html; charset=utf-8" };
        }
        // A page of this origin framing a page of the other origin (another site).
        if (name === "cross-frame.html") {
          const body = `<!doctype html><title>Framed</title><h1>Framed</h1><button type="button" onclick="window.here=(window.here||0)+1">Here</button><iframe src="{{OTHER_ORIGIN}}/page2.html" width="500" height="300"></iframe>`;
          return { body, type: "text/html; charset=utf-8" };
        }
        return undefined;
      }),
    ]);
    cleanups.push(() => nats.dispose(), () => db.drop(), () => fake.close(), () => pages.close());
    const config = loadApiConfig({
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      PORT: "0",
      HOST: "127.0.0.1",
      CRUMBS_TOKEN: TOKEN,
      CRUMBS_RELAY_POLL_MS: "50",
      ...(trust ? { CRUMBS_NATS_ACCOUNT_SEED: trust.accountSeed } : {}),
    });
    let natsCreds: string | undefined;
    if (trust) {
      const dir = await mkdtemp(join(tmpdir(), "crumbs-e2e-creds-"));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      natsCreds = join(dir, "runner.creds");
      await writeFile(natsCreds, mintRunnerUser(trust.accountSeed).creds, { mode: 0o600 });
    }
    const api = await startApi({ config, logger: silentLogger });
    cleanups.push(() => api.close());
    const client = createApi({ apiUrl: api.url, token: TOKEN });
    const runner = await startRunner({
      crumbsUrl: api.url,
      token: TOKEN,
      natsUrl: nats.url,
      ...(natsCreds ? { natsCreds } : {}),
      openaiBaseUrl: fake.url,
      openrouterBaseUrl: fake.url,
      openrouterApiKey: "or-test-key",
      modelTimeoutMs: 5_000,
      ackWaitMs: 5_000,
      logger: silentLogger,
    });
    cleanups.push(() => runner.close());
    if (opts.pageAssistant !== false) {
      const def = JSON.parse(await readFile(PAGE_ASSISTANT_FILE, "utf8"));
      await client.create(def);
      await waitFor(() => runner.agents().some((a) => a.def.agent_id === "page-assistant"), { message: "page-assistant loaded" });
    }

    const browser = await launchChromium({ extensionPath: distDir });
    cleanups.push(() => browser.close());
    const context = browser.context;
    let current = context.serviceWorkers().find(isOurs) ?? (await context.waitForEvent("serviceworker", { predicate: isOurs, timeout: 30_000 }));
    const extensionId = new URL(current.url()).host;
    context.on("serviceworker", (w) => {
      if (isOurs(w)) current = w;
    });
    // Playwright keeps the same Worker object across a stop and restart of the service worker.
    let stopped = false;
    const worker = async () => {
      if (stopped) {
        // A stopped worker starts again on its next event: the keepalive alarm within 30 s, or a tab
        // activation, which a new tab gives at once.
        stopped = false;
        const front = context.pages().at(-1);
        const p = await context.newPage();
        await waitFor(() => current.evaluate(() => true).catch(() => false), { timeout: 10_000, message: "worker running again" });
        await p.close();
        await front?.bringToFront();
      }
      return context.serviceWorkers().find(isOurs) ?? current;
    };
    const url = (path: string, opts: { other?: boolean } = {}) => `${opts.other ? pages.otherOrigin : pages.origin}/${path}`;

    const e2e: E2E = {
      nats,
      db,
      api,
      fake,
      runner,
      client,
      pages,
      context,
      extensionId,
      worker,
      async stopWorker() {
        const page = context.pages()[0] ?? (await context.newPage());
        const cdp = await context.newCDPSession(page);
        await cdp.send("ServiceWorker.enable");
        await cdp.send("ServiceWorker.stopAllWorkers");
        await cdp.detach();
        stopped = true;
      },
      async configure(extra = {}) {
        const w = await worker();
        await w.evaluate((settings) => chrome.storage.local.set(settings), { apiUrl: api.url, token: TOKEN, natsWsUrl: nats.wsUrl, ...extra });
      },
      async storage(key) {
        const w = await worker();
        return w.evaluate(async (k) => (await chrome.storage.local.get(k))[k], key) as never;
      },
      async open(path, opts) {
        const page = await context.newPage();
        await page.goto(url(path, opts), { waitUntil: "load" });
        await page.bringToFront();
        return page;
      },
      url,
      async extensionPage(name) {
        const page = await context.newPage();
        await page.goto(`chrome-extension://${extensionId}/${name}`);
        return page;
      },
      close,
    };
    return e2e;
  } catch (e) {
    await close();
    throw e;
  }
}

/** The living page-context breadcrumb of this extension, found by its key. */
export async function livingContext(e: E2E): Promise<Breadcrumb | undefined> {
  const [b] = await e.client.list({ key: `browser.page.context:${e.extensionId}` });
  return b;
}

export async function waitForContext(e: E2E, ok: (b: Breadcrumb) => boolean, message: string, timeout = 5_000): Promise<Breadcrumb> {
  return waitFor(async () => {
    const b = await livingContext(e);
    return b && ok(b) ? b : undefined;
  }, { timeout, message });
}

/** The worker's NATS state as it reports it to the side panel (`crumbs.status` in storage). */
export async function natsState(e: E2E): Promise<string | undefined> {
  return (await e.storage<{ nats?: { state: string } } | undefined>("crumbs.status"))?.nats?.state;
}

export async function waitNatsConnected(e: E2E, timeout: number): Promise<void> {
  await waitFor(async () => (await natsState(e)) === "connected", { timeout, message: "extension connected to NATS" });
}

/**
 * A page-interest lease of the test's own (as an agent that listens would hold): the extension
 * captures while it lives. `ttlSeconds` short and no renewal lets it expire; `release()` deletes it.
 */
export async function leaseInterest(
  e: Pick<E2E, "api" | "extensionId">,
  opts: { label?: string; ttlSeconds?: number; renew?: boolean } = {},
): Promise<{ id: string; release(): Promise<void> }> {
  const http = new CrumbsHttp({ url: e.api.url, token: TOKEN });
  const label = opts.label ?? "test: e2e";
  const lease = new InterestLease(http, {
    holder: { id: `test:${label}`, label },
    extensionId: e.extensionId,
    ...(opts.ttlSeconds ? { ttlSeconds: opts.ttlSeconds } : {}),
    // No renewal: a lease that must run out; else the contract's.
    ...(opts.renew === false ? { renewMs: 2 ** 31 - 1 } : {}),
  });
  await lease.start();
  return { id: lease.leaseId!, release: () => lease.stop() };
}

type Counts = { captures: number; unchanged: number; paused: number };
type TrackerHandle = { crumbsBus: { tracker: { counts(): Counts; trigger(reason: string): void } } };

/** The worker's page reads for the context, those that found nothing to write, and the runs that found nobody listening (Tracker.counts). */
export async function captureCounts(e: E2E): Promise<Counts> {
  const w = await e.worker();
  return w.evaluate(() => (globalThis as unknown as TrackerHandle).crumbsBus.tracker.counts());
}

/** Asks the worker's tracker for one more capture of the active tab, as a tab event would. */
export async function triggerCapture(e: E2E): Promise<void> {
  const w = await e.worker();
  await w.evaluate(() => (globalThis as unknown as TrackerHandle).crumbsBus.tracker.trigger("test"));
}
