import type { Page } from "playwright-core";
import type { Harness } from "../../test/harness.ts";
import type { Action } from "./policy.ts";
import type { Eyes } from "./run-task.ts";

// The two snapshot sources and their act-by-ref functions.

/** How long one action may wait for its element on either side. */
export const ACTION_TIMEOUT_MS = 3_000;

/** The extension: crumbs.execute in its service worker, the snapshot and the actions of an agent. */
export function extensionEyes(h: Harness): Eyes {
  return {
    async snapshot() {
      const r = await h.execute({ type: "snapshot" });
      if (!r.success) throw new Error(`snapshot: ${r.error}`);
      return (r.data as { text: string }).text;
    },
    async act(action) {
      const params: Record<string, unknown> = { ref: action.ref };
      if (action.type === "scroll") params.direction = "down";
      else params.timeout_ms = ACTION_TIMEOUT_MS;
      if (action.type === "fill" || action.type === "select") params.value = action.value;
      if (action.type === "press") params.key = action.key;
      const r = await h.execute({ type: action.type, params });
      return r.success ? undefined : (r.error ?? "failed");
    },
  };
}

/** Playwright: page.ariaSnapshot({mode: "ai"}), its refs acted on through the aria-ref locator. */
export function playwrightEyes(page: Page): Eyes {
  return {
    snapshot: () => page.ariaSnapshot({ mode: "ai" }),
    async act(action: Action) {
      const el = page.locator(`aria-ref=${action.ref}`);
      const timeout = ACTION_TIMEOUT_MS;
      try {
        if (action.type === "click") await el.click({ timeout });
        else if (action.type === "hover") await el.hover({ timeout });
        else if (action.type === "fill") await el.fill(action.value, { timeout });
        else if (action.type === "select") await el.selectOption(action.value, { timeout });
        else if (action.type === "press") await el.press(action.key, { timeout });
        else await el.evaluate((e) => e.scrollBy({ top: e.clientHeight * 0.8, behavior: "instant" }), undefined, { timeout });
        return undefined;
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
    },
  };
}
