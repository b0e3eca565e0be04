// The runner's token unit is the one of @crumbs/schemas (four characters a token), the same as the
// extension's snapshot budget; it only decides how much history fits.
export { estimateTokens } from "@crumbs/schemas";

/** `text` cut to at most `max` characters, marked when cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
