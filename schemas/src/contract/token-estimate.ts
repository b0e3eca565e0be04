// The one token estimate of crumbs: about four characters a token, the usual rule for English text and
// markup. The extension's snapshot budget and the runner's memory budget both count with it, so "4,000
// tokens" means the same on both sides. It has to be stable and a little generous, not exact. A light
// subpath (`@crumbs/schemas/tokens`): the extension bundles it.

export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function tokensToChars(tokens: number): number {
  return tokens * CHARS_PER_TOKEN;
}
