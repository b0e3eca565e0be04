import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags that keep Chromium quiet on a machine without outside network. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export interface ChromiumWithExtension {
  context: BrowserContext;
  userDataDir: string;
  close(): Promise<void>;
}

/**
 * Debian's Chromium with an unpacked extension loaded, in a fresh profile.
 * Extensions need a persistent context; headless "new" mode runs them.
 */
export async function launchChromium(opts: { extensionPath?: string; headless?: boolean } = {}) {
  const userDataDir = await mkdtemp(join(tmpdir(), "crumbs-chromium-"));
  const args = [...chromiumArgs];
  if (opts.extensionPath) {
    args.push(`--disable-extensions-except=${opts.extensionPath}`, `--load-extension=${opts.extensionPath}`);
  }
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: opts.headless ?? true,
    args,
  });
  return {
    context,
    userDataDir,
    async close() {
      await context.close().catch(() => {});
      await rm(userDataDir, { recursive: true, force: true });
    },
  } satisfies ChromiumWithExtension;
}
