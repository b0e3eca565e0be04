import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "@crumbs/testkit";
import type { BrowserContext, Page, Worker } from "playwright-core";
import type { ExecuteResult } from "../src/shared/command.ts";
import { startFixtureServer, type FixtureServer } from "./fixture-server.ts";
import { generatedPage } from "./generated-pages.ts";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const distDir = join(root, "dist");
export const fixturesDir = join(root, "test", "fixtures");

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Builds dist/ when any source is newer than it; a file lock keeps parallel test runs from racing. */
export function ensureBuilt(): void {
  const built = join(distDir, "content.js");
  const sources = Math.max(newestMtime(join(root, "src")), newestMtime(join(root, "static")), newestMtime(join(root, "build.ts")), newestMtime(join(root, "icons.ts")));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  execFileSync("flock", ["/tmp/crumbs-ext-build.lock", process.execPath, "--import", "tsx", "build.ts"], {
    cwd: root,
    stdio: "inherit",
  });
}

export interface Harness {
  context: BrowserContext;
  worker: Worker;
  server: FixtureServer;
  /** Runs `globalThis.crumbs.execute(command)` in the extension's service worker. */
  execute(command: unknown): Promise<ExecuteResult>;
  /** Opens a fixture (path under test/fixtures, or gen/<name>) in a new tab and makes it the active tab. */
  openFixture(name: string, opts?: { other?: boolean }): Promise<Page>;
  url(name: string, opts?: { other?: boolean }): string;
  close(): Promise<void>;
}

async function extensionWorker(context: BrowserContext): Promise<Worker> {
  const isOurs = (w: Worker) => w.url().startsWith("chrome-extension://") && w.url().endsWith("/background.js");
  const existing = context.serviceWorkers().find(isOurs);
  if (existing) return existing;
  return context.waitForEvent("serviceworker", { predicate: isOurs, timeout: 30_000 });
}

/** `fixtures`: the folder the pages are served from (test/fixtures unless given; the bench's apps have their own). */
export async function startHarness(opts: { fixtures?: string } = {}): Promise<Harness> {
  ensureBuilt();
  const server = await startFixtureServer(opts.fixtures ?? fixturesDir, generatedPage);
  const browser = await launchChromium({ extensionPath: distDir });
  let worker = await extensionWorker(browser.context);
  const url = (name: string, opts: { other?: boolean } = {}) =>
    `${opts.other ? server.otherOrigin : server.origin}/${name}`;
  const harness: Harness = {
    context: browser.context,
    get worker() {
      return worker;
    },
    server,
    url,
    async execute(command) {
      try {
        return await worker.evaluate((c) => (globalThis as unknown as { crumbs: { execute(c: unknown): Promise<ExecuteResult> } }).crumbs.execute(c), command);
      } catch (e) {
        // The worker may have been stopped (MV3); a fresh one carries the same code and storage.
        if (!/closed|destroyed|detached/i.test(String(e))) throw e;
        worker = await extensionWorker(browser.context);
        return worker.evaluate((c) => (globalThis as unknown as { crumbs: { execute(c: unknown): Promise<ExecuteResult> } }).crumbs.execute(c), command);
      }
    },
    async openFixture(name, opts = {}) {
      const page = await browser.context.newPage();
      await page.goto(url(name, opts), { waitUntil: "load" });
      await page.bringToFront();
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
  return harness;
}
