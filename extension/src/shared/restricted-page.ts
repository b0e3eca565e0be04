// Pages no extension may read or act on, and what to tell the user about one in words, not
// Chrome's "Cannot access contents of url ... Extension manifest must request permission".
// Pure: the worker refuses actions with it and the side panel shows it for the tab you are on.

const RESTRICTED = /^(chrome|chrome-extension|edge|about|devtools|view-source|chrome-search):/;
const WEB_STORE = ["https://chrome.google.com/webstore", "https://chromewebstore.google.com"];

/** Pages no extension may script (chrome://, the web store, other extensions). about:blank is a page of its opener. */
export function isRestrictedUrl(url: string | undefined): boolean {
  if (!url) return false;
  if (url === "about:blank") return false;
  return RESTRICTED.test(url) || WEB_STORE.some((w) => url.startsWith(w));
}

const INSTEAD = "open a web page (an http or https address) in this tab, or go to a tab that shows one, then ask again";

/**
 * What the user can do on a tab crumbs cannot read: undefined for an ordinary page. A blank tab
 * (about:blank, a new tab) has nothing to read; Chrome keeps its own pages and the Web Store closed
 * to every extension.
 */
export function restrictedPageHelp(url: string | undefined): string | undefined {
  if (url === undefined || url === "" || url === "about:blank" || /^chrome:\/\/new-?tab/.test(url) || url.startsWith("chrome-search:")) {
    return `This tab is empty: there is no page for crumbs to read or act on. To use the agent here, ${INSTEAD}.`;
  }
  if (WEB_STORE.some((w) => url.startsWith(w))) {
    return `Chrome lets no extension read or act on the Chrome Web Store. To use the agent, ${INSTEAD}.`;
  }
  if (RESTRICTED.test(url)) {
    const scheme = url.slice(0, url.indexOf(":"));
    return `Chrome lets no extension read or act on its own pages (${scheme}:). To use the agent, ${INSTEAD}.`;
  }
  return undefined;
}

/** Chrome's own refusal to script a page, recognised so it is never shown as it is. */
export function isChromeAccessRefusal(message: string): boolean {
  return /Cannot access (contents of url|a chrome:\/\/ URL|a chrome-extension:\/\/ URL)|cannot be scripted|must request permission to access/i.test(message);
}
