// "No update when nothing meaningful changed" (docs/extension.md, "The page context"): the
// fingerprint covers what an agent reads (where, what the page says, what can be acted on), not the
// capture time or the scroll offset.

export interface FingerprintInput {
  url: string;
  title: string;
  tabId?: number | undefined;
  content?: { mainText?: string; headings?: string[]; links?: unknown[]; forms?: unknown[] } | undefined;
  snapshot?: { text: string } | undefined;
}

/** FNV-1a, 52 bits: small enough to store, collisions irrelevant at this scale. */
function hash(text: string): string {
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * prime) & 0xffffffffffffffffn;
  }
  return (h >> 12n).toString(36);
}

export function fingerprint(c: FingerprintInput): string {
  return hash(
    JSON.stringify([
      c.url,
      c.title,
      c.tabId ?? null,
      c.content?.mainText ?? "",
      c.content?.headings ?? [],
      c.content?.links ?? [],
      c.content?.forms ?? [],
      c.snapshot?.text ?? "",
    ]),
  );
}
