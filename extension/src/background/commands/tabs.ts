import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { checkUrlPattern } from "../../shared/url-match.ts";
import { targetTab } from "./active-tab.ts";
import { type Command, isTabAction } from "../../shared/command.ts";
import { openParams, tabCommandSchema, tabIdParams, tabNewParams, waitForUrlParams, type TabCommand } from "./tabs-params.ts";
import { TabWaitError, waitForTabLoad, waitForTabUrl } from "./tabs-wait.ts";

// The commands the worker runs itself with chrome.tabs: open (navigate and wait for the load), tab_new,
// tab_list, tab_switch, tab_close, and wait_for with `until.url` (a navigation replaces the content script,
// so only the worker can wait across it). Nothing is kept in memory: the worker may be stopped at any time.

export interface TabDeps {
  /** runs a command in the tab's page (execute.ts's content routing); used for the rest of a wait_for after its URL matched */
  runInPage?: (command: { type: string; params?: unknown; tab_id?: number }) => Promise<unknown>;
}

const DEFAULT_LOAD_MS = 30_000;
const DEFAULT_WAIT_MS = 10_000;

/** Commands this file runs; `wait_for` only when it waits for a URL. */
export function isTabCommand(command: { type: string; params?: unknown }): boolean {
  if (isTabAction(command.type as Command["type"])) return true;
  const until = (command.params as { until?: { url?: unknown } } | undefined)?.until;
  return command.type === "wait_for" && typeof until?.url === "string";
}

/**
 * Runs one tab command and resolves to its result data; failures throw ActionError (not_found for a
 * missing tab, timeout, invalid_params, blocked_by_policy for browser-internal URLs).
 */
export async function handleTabCommand(command: unknown, deps: TabDeps = {}): Promise<unknown> {
  try {
    return await run(tabFormAsTabAction(parse(tabCommandSchema, command)), deps);
  } catch (err) {
    if (err instanceof ActionError) throw err;
    if (err instanceof TabWaitError) throw new ActionError(err.code, err.message);
    const message = err instanceof Error ? err.message : String(err);
    // chrome.tabs rejects unknown ids with "No tab with id: 123."
    if (/no tab with id/i.test(message)) throw new ActionError("not_found", `${message} List tabs with tab_list.`);
    throw new ActionError("invalid_params", message);
  }
}

/**
 * The `tab` form of a command, `{type: "tab", params: {action: "new" | "list" | "switch" | "close", ...}}`,
 * as the matching `tab_<action>`.
 */
function tabFormAsTabAction(cmd: TabCommand): TabCommand {
  if (cmd.type !== "tab") return cmd;
  const { action, ...rest } = (cmd.params ?? {}) as { action?: unknown };
  if (typeof action !== "string" || !["new", "list", "switch", "close"].includes(action)) {
    throw new ActionError("invalid_params", "`tab` needs params.action: new, list, switch or close");
  }
  return { ...cmd, type: `tab_${action}`, params: rest };
}

async function run(cmd: TabCommand, deps: TabDeps): Promise<unknown> {
  switch (cmd.type) {
    case "open": {
      const p = parse(openParams, cmd.params);
      const url = checkUrl(p.url);
      const tab = await targetTab(p.tab_id ?? cmd.tab_id);
      const loaded = waitForTabLoad(tab.id!, p.timeout_ms ?? DEFAULT_LOAD_MS);
      await chrome.tabs.update(tab.id!, { url });
      return describe(await loaded);
    }
    case "tab_new": {
      const p = parse(tabNewParams, cmd.params);
      const url = p.url === undefined ? "about:blank" : checkUrl(p.url);
      const active = p.active ?? true;
      const tab = await chrome.tabs.create({ url, active });
      if (active && tab.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
      return describe(await waitForTabLoad(tab.id!, p.timeout_ms ?? DEFAULT_LOAD_MS, true));
    }
    case "tab_list": {
      const tabs = await chrome.tabs.query({});
      return { tabs: tabs.map(describe) };
    }
    case "tab_switch": {
      const { tab_id } = parse(tabIdParams, { tab_id: cmd.tab_id, ...(cmd.params as object) });
      const tab = await chrome.tabs.update(tab_id, { active: true });
      if (tab?.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
      return describe((await chrome.tabs.get(tab_id)) ?? tab!);
    }
    case "tab_close": {
      const { tab_id } = parse(tabIdParams, { tab_id: cmd.tab_id, ...(cmd.params as object) });
      await chrome.tabs.get(tab_id);
      await chrome.tabs.remove(tab_id);
      return { closed: tab_id };
    }
    case "wait_for": {
      const p = parse(waitForUrlParams, cmd.params);
      const bad = checkUrlPattern(p.until.url);
      if (bad) throw new ActionError("invalid_params", bad);
      const started = Date.now();
      const timeout = p.timeout_ms ?? DEFAULT_WAIT_MS;
      const tab = await targetTab(p.tab_id ?? cmd.tab_id);
      const matched = await waitForTabUrl(tab.id!, p.until.url, timeout);
      const { url: _url, ...rest } = p.until;
      const remaining = Object.values(rest).some((v) => v !== undefined && v !== false);
      if (remaining && deps.runInPage) {
        const left = Math.max(0, timeout - (Date.now() - started));
        return deps.runInPage({ type: "wait_for", params: { until: rest, timeout_ms: left }, tab_id: tab.id });
      }
      return { waited_ms: Date.now() - started, ...describe(matched) };
    }
    default:
      throw new ActionError("invalid_params", `"${cmd.type}" is not a tab command`);
  }
}

function parse<S extends z.ZodMiniType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw new ActionError("invalid_params", `invalid params: ${z.prettifyError(result.error)}`);
  return result.data;
}

/** Only web pages and blank tabs; browser-internal and script URLs are refused. */
function checkUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // "example.com/docs" is what people type: treat a bare host as https.
    if (/^[\w-]+(\.[\w-]+)+(:\d+)?(\/.*)?$/.test(raw)) return `https://${raw}`;
    throw new ActionError("invalid_params", `"${raw}" is not a URL`);
  }
  if (["http:", "https:"].includes(url.protocol) || url.href === "about:blank") return url.href;
  if (["javascript:", "chrome:", "chrome-extension:", "devtools:", "data:", "view-source:"].includes(url.protocol)) {
    throw new ActionError("blocked_by_policy", `${url.protocol} URLs cannot be opened by an agent`);
  }
  // file: would read the user's disk; the action schema refuses it too (isWebUrl).
  throw new ActionError("invalid_params", `${url.protocol} URLs cannot be opened: only http and https URLs can`);
}

function describe(tab: chrome.tabs.Tab) {
  return { tab_id: tab.id, url: tab.url ?? tab.pendingUrl ?? "", title: tab.title ?? "", active: tab.active, window_id: tab.windowId };
}
