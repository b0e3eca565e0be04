import type { LlmHints } from "./llm-hints-schema.ts";

/**
 * Later layers win per transform key; exclude lists are joined; include and mode are taken from
 * the last layer that has them.
 */
export function mergeHints(layers: readonly (LlmHints | undefined | null)[]): LlmHints {
  const out: LlmHints = {};
  for (const layer of layers) {
    if (!layer) continue;
    if (layer.mode !== undefined) out.mode = layer.mode;
    if (layer.transform) out.transform = { ...out.transform, ...layer.transform };
    if (layer.include !== undefined) out.include = [...layer.include];
    if (layer.exclude) out.exclude = [...new Set([...(out.exclude ?? []), ...layer.exclude])];
  }
  return out;
}
