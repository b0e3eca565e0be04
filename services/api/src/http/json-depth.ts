/**
 * Nesting depth of JSON text, found by a linear scan of the raw characters
 * (strings skipped), so a hostile 10,000-deep body is rejected before any
 * recursive code (JSON.parse, zod, Postgres jsonb) sees it. Stops early.
 */
export function jsonTextDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++;
      else if (ch === 0x22 /* " */) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) depth--;
  }
  return false;
}
