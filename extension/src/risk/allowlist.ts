// Pure safety rules for actions that arrive over the bus: which actions write, and which hosts
// they may write to (docs/extension.md, "Settings": storage key `allowlist`, host patterns such as
// `*.example.com`).

/** Actions that change a page or navigate; everything else only reads or moves the viewport. */
export const WRITE_ACTIONS: ReadonlySet<string> = new Set([
  "click",
  "dblclick",
  "fill",
  "type",
  "press",
  "check",
  "uncheck",
  "select",
  "submit",
  "open",
  "tab_new",
]);

export function isWriteAction(action: string): boolean {
  return WRITE_ACTIONS.has(action);
}

/**
 * `*.example.com` matches example.com and every subdomain; `example.com` only itself; `*` any host.
 * Ports and schemes are not part of a pattern; comparison ignores case.
 */
export function hostMatches(pattern: string, host: string): boolean {
  const p = pattern.trim().toLowerCase();
  const h = host.toLowerCase().replace(/\.$/, "");
  if (!p) return false;
  if (p === "*") return true;
  if (p.startsWith("*.")) {
    const base = p.slice(2);
    return h === base || h.endsWith(`.${base}`);
  }
  return h === p;
}

export function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.hostname : undefined;
  } catch {
    return undefined;
  }
}

export type PolicyVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * May `action` write to (or navigate to) `url` under the allowlist? An empty list allows none; a URL
 * without an http(s) host is refused while a list is set, since no pattern can name it. Without a list
 * this allows: the task's own site is the limit then, checked in the page (content/guard.ts) and by
 * the risk of leaving the site.
 */
export function checkWrite(action: string, url: string | undefined, allowlist: readonly string[] | undefined): PolicyVerdict {
  if (!isWriteAction(action) || allowlist === undefined) return { allowed: true };
  const host = hostOf(url);
  if (host && allowlist.some((p) => hostMatches(p, host))) return { allowed: true };
  return {
    allowed: false,
    reason: `${action} on ${host ?? url ?? "this page"} is not allowed: the host is not in the extension's allowlist (${allowlist.join(", ") || "empty"})`,
  };
}
