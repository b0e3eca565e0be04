import { InvalidLlmHintsError, issuesFrom, pathOf } from "../contract/errors.ts";
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
  const at = pathOf(where);
  if (proto !== undefined) {
    throw new InvalidLlmHintsError(`${where}.${proto}: a key named __proto__ is not allowed`, {
      issues: [{ path: [...at, ...pathOf(proto)], code: "proto_key", message: "a key named __proto__ is not allowed" }],
    });
  }
  const parsed = llmHintsSchema.safeParse(hints);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const place = first?.path.length ? `.${first.path.join(".")}` : "";
    throw new InvalidLlmHintsError(`${where}${place}: ${first?.message ?? "invalid"}`, { issues: issuesFrom(parsed.error.issues, at) });
  }
  const transforms = Object.entries(parsed.data.transform ?? {});
  if (transforms.length > MAX_TRANSFORMS) {
    const message = `at most ${MAX_TRANSFORMS} transforms (got ${transforms.length})`;
    throw new InvalidLlmHintsError(`${where}.transform: ${message}`, {
      issues: [{ path: [...at, "transform"], code: "too_big", message }],
      limit: { name: "transforms", max: MAX_TRANSFORMS, unit: "transforms" },
    });
  }
  for (const [key, rule] of transforms) {
    // (`__proto__` keys were refused above, so zod's output has no altered prototypes.)
    try {
      compileRule(rule);
    } catch (e) {
      const reason = e instanceof HintCompileError || e instanceof Error ? e.message : String(e);
      throw new InvalidLlmHintsError(`${where}.transform.${key}: ${reason}`, {
        issues: [{ path: [...at, "transform", key], code: "invalid_rule", message: `${rule.type}: ${reason}` }],
      });
    }
  }
  return parsed.data;
}
