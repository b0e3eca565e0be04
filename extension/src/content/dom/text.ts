// Output bounds: results go to a model's context, so every free-text field is capped.

export const DEFAULT_MAX_CHARS = 4_000;

export function bounded(text: string, max = DEFAULT_MAX_CHARS): { text: string; truncated: boolean; total_chars: number } {
  const truncated = text.length > max;
  return { text: truncated ? text.slice(0, max) : text, truncated, total_chars: text.length };
}

export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1) + "…" : t;
}
