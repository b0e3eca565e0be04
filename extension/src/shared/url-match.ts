// Pure URL pattern matching shared by wait_for in the page and in the worker.

export const MAX_PATTERN_LENGTH = 512;

/**
 * `pattern` matches `href` when it is `/regex/` (tested against the whole URL), a glob with `*` (any
 * characters, matched against the whole URL), or otherwise a substring.
 */
export function urlMatches(href: string, pattern: string): boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) return false;
  if (pattern.length > 2 && pattern.startsWith("/") && pattern.endsWith("/")) {
    try {
      return new RegExp(pattern.slice(1, -1)).test(href);
    } catch {
      return false;
    }
  }
  if (pattern.includes("*")) {
    const re = pattern
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    return new RegExp(`^${re}$`).test(href);
  }
  return href.includes(pattern);
}

/** Is `pattern` usable? An invalid regex is a caller error, not a silent never-match. */
export function checkUrlPattern(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `url pattern longer than ${MAX_PATTERN_LENGTH} characters`;
  if (pattern.length > 2 && pattern.startsWith("/") && pattern.endsWith("/")) {
    try {
      new RegExp(pattern.slice(1, -1));
    } catch {
      return `url pattern ${pattern} is not a valid regular expression`;
    }
  }
  return undefined;
}
