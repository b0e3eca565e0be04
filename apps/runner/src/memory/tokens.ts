// The runner's token unit: about four characters a token, the same rule as the extension's snapshot
// budget. It only has to be stable and a little generous, not exact: it decides how much history fits.
const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** `text` cut to at most `max` characters, marked when cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
