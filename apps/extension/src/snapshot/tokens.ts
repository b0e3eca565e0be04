/** The budget's unit: about four characters a token, the usual rule for English text and markup. */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function tokensToChars(tokens: number): number {
  return tokens * CHARS_PER_TOKEN;
}
