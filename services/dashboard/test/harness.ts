import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { launchChromium } from "@crumbs/testkit";
import type { Page } from "playwright-core";
import { startStack, TOKEN, type TestStack } from "../../../agents/runner/test/stack.ts";
import { buildDashboard } from "../build.ts";

export { TOKEN };
const docsDir = fileURLToPath(new URL("../../../docs/dashboard/", import.meta.url));

export interface DashboardHarness {
  stack: TestStack;
  page: Page;
  /** http://127.0.0.1:<port>/ui/ */
  ui: string;
  /** Every URL the page requested that is not the API's own origin (must stay empty). */
  foreignRequests: string[];
  /** Opens `#/<route>` freshly loaded (as a person arriving there) and waits for the page's main element. */
  go(route: string): Promise<void>;
  /** With CRUMBS_SCREENSHOTS=1: saves docs/dashboard/<name>.png. */
  shoot(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real API (real Postgres, its own nats-server, the fake model for a runner) and a plain
 * Chromium on its `/ui/`. The dashboard is built first, so a test never sees a stale bundle.
 */
export async function startDashboard(opts: { colorScheme?: "light" | "dark" } = {}): Promise<DashboardHarness> {
  await buildDashboard();
  const stack = await startStack();
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: opts.colorScheme ?? "light" });
  const origin = new URL(stack.api.url).origin;
  const foreignRequests: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).origin !== origin) foreignRequests.push(r.url());
  });
  const ui = `${stack.api.url}/ui/`;
  return {
    stack,
    page,
    ui,
    foreignRequests,
    async go(route) {
      await page.goto(`${ui}#/${route}`);
      await page.reload();
      await page.waitForSelector("main#main");
    },
    async shoot(name) {
      if (!process.env.CRUMBS_SCREENSHOTS) return;
      await mkdir(docsDir, { recursive: true });
      await page.screenshot({ path: `${docsDir}${name}.png`, fullPage: false });
    },
    async close() {
      await browser.close();
      await stack.close();
    },
  };
}

/** Logs in the way a person does: the token typed into the form, Enter. */
export async function login(page: Page, ui: string, token = TOKEN): Promise<void> {
  await page.goto(ui);
  await page.getByLabel("API token").fill(token);
  await page.keyboard.press("Enter");
  await page.getByRole("navigation", { name: "Pages" }).waitFor();
}
