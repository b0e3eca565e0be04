// The names of the browser actions, and which of them only read: plain data without zod, so a bundle
// that needs only the names (the extension's side panel and options page, through its risk rules)
// does not carry the params schemas (browser-action-schema.ts, which re-exports these).

export const BROWSER_ACTIONS = [
  "snapshot",
  "click",
  "dblclick",
  "fill",
  "type",
  "press",
  "hover",
  "focus",
  "check",
  "uncheck",
  "select",
  "scroll",
  "submit",
  "wait_for",
  "extract",
  "get",
  "is",
  "query",
  "details",
  "capture_candidates",
  "open",
  "tab_new",
  "tab_list",
  "tab_switch",
  "tab_close",
] as const;
type BrowserAction = (typeof BROWSER_ACTIONS)[number];

/**
 * Actions that only read the page or move its viewport: low risk, never a confirmation. The runner's
 * `risk` hint and the extension's classifier both take them from here.
 */
export const READ_ACTIONS: ReadonlySet<string> = new Set<BrowserAction>([
  "snapshot",
  "extract",
  "get",
  "is",
  "query",
  "details",
  "capture_candidates",
  "wait_for",
  "tab_list",
  "hover",
  "scroll",
  "focus",
]);
