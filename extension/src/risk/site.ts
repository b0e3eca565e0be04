// "Site" as the user means it: example.com for www.example.com and shop.example.com. Without a
// public suffix list this is the registrable domain for the common cases: the last two labels, or
// three under a two-letter country code with a generic second level (example.co.uk, example.com.au).
// An IP address or a one-label host (localhost) is its own site. Ports and schemes do not count.

const SECOND_LEVEL = new Set(["co", "com", "net", "org", "gov", "edu", "ac", "ne", "or", "go"]);

export function siteOfHost(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, "").replace(/^\[|\]$/g, "");
  if (/^[\d.]+$/.test(h) || h.includes(":")) return h;
  const labels = h.split(".");
  if (labels.length <= 2) return h;
  const tld = labels.at(-1)!;
  const second = labels.at(-2)!;
  const n = tld.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-n).join(".");
}

/** The site of an http(s) URL; undefined for file:, about:, data: and anything unparsable. */
export function siteOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? siteOfHost(u.hostname) : undefined;
  } catch {
    return undefined;
  }
}

export function hostOfUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
