import { InvalidLlmHintsError } from "../contract/errors.ts";
import { HintCompileError } from "../lang/hint-compile-error.ts";
import { findProtoKey } from "../json-values.ts";
import { llmHintsSchema, type LlmHints } from "./llm-hints-schema.ts";
import { compileRule } from "./llm-rules.ts";

/** Transforms in one hints object: each may spend up to a transform's budget when a view renders. */
export const MAX_TRANSFORMS = 64;

/**
 * Validates hints completely: the shape, then every template compiles, every path parses and every
 * literal expression parses. Throws InvalidLlmHintsError whose details name the transform key.
 */
export function validateLlmHints(hints: unknown, where = "llm_hints"): LlmHints {
  const proto = findProtoKey(hints);
  if (proto !== undefined) throw new InvalidLlmHintsError(`${where}.${proto}: a key named __proto__ is not allowed`, { where, path: proto });
  const parsed = llmHintsSchema.safeParse(hints);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const at = first?.path.length ? `.${first.path.join(".")}` : "";
    throw new InvalidLlmHintsError(`${where}${at}: ${first?.message ?? "invalid"}`, { where, issues: parsed.error.issues });
  }
  const transforms = Object.entries(parsed.data.transform ?? {});
  if (transforms.length > MAX_TRANSFORMS) {
    throw new InvalidLlmHintsError(`${where}.transform: at most ${MAX_TRANSFORMS} transforms (got ${transforms.length})`, {
      where,
      limit: "transforms",
      max: MAX_TRANSFORMS,
    });
  }
  for (const [key, rule] of transforms) {
    // (`__proto__` keys were refused above, so zod's output has no altered prototypes.)
    try {
      compileRule(rule);
    } catch (e) {
      const reason = e instanceof HintCompileError || e instanceof Error ? e.message : String(e);
      throw new InvalidLlmHintsError(`${where}.transform.${key}: ${reason}`, { where, transform: key, type: rule.type, reason });
    }
  }
  return parsed.data;
}
