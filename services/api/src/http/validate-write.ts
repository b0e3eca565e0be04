import type { z } from "zod";
import { knownContextSchemas, validateContext, validateLlmHints, type Breadcrumb } from "@crumbs/schemas";
import type { ContentCheck } from "../store/index.ts";
import { bodyError } from "./params.ts";

/**
 * Body schema check with the contract's split: a problem inside `llm_hints`
 * is 422 invalid_llm_hints (from validateLlmHints, which names the rule);
 * anything else about the envelope is 400 invalid_request.
 */
export function parseWriteBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const hintsIssue = parsed.error.issues.find((i) => i.path[0] === "llm_hints");
  if (hintsIssue && body && typeof body === "object" && "llm_hints" in body) {
    validateLlmHints((body as { llm_hints: unknown }).llm_hints);
  }
  throw bodyError(parsed.error.issues);
}

/** Top-level hints compile (templates, paths) before anything is written. */
export function checkTopLevelHints(hints: unknown): void {
  if (hints !== undefined && hints !== null) validateLlmHints(hints);
}

/** The resulting breadcrumb: known schemas validate their context; hints inside the context must compile. */
export function checkBreadcrumbContent(b: Pick<Breadcrumb, "schema_name" | "context">): void {
  validateContext(b.schema_name, b.context);
  const inner = (b.context as { llm_hints?: unknown }).llm_hints;
  if (inner !== undefined) validateLlmHints(inner);
}

/** Any name that is not a known schema: unknown schemas all accept the same contexts. */
const UNKNOWN_SCHEMA = "crumbs.any-unknown-schema.v1";
if (Object.hasOwn(knownContextSchemas, UNKNOWN_SCHEMA)) throw new Error(`${UNKNOWN_SCHEMA} must not be a known schema`);

/**
 * checkBreadcrumbContent for every schema at once, each step done once. For a known schema the
 * check is: what it asks of any schema (an object, no __proto__ key, inner hints that compile),
 * then the schema's zod parse, then the parsed hints, which are the context's own (checked
 * already) unless the parse made new ones. A PATCH asks this for every write; running the full
 * check per schema parsed and walked a page context twice (a tenth of the API's main thread in
 * a perf profile of the write-path bench). write-schema-guard.test.ts holds it to the full check.
 */
function schemasRefusing(context: unknown): "all" | readonly string[] {
  if (!passes(() => checkBreadcrumbContent({ schema_name: UNKNOWN_SCHEMA, context: context as Breadcrumb["context"] }))) {
    return "all";
  }
  const own = (context as { llm_hints?: unknown }).llm_hints;
  const refused: string[] = [];
  for (const [name, schema] of Object.entries(knownContextSchemas)) {
    const parsed = lacksRequiredKey(name, context) ? undefined : schema.safeParse(context);
    const hints = parsed?.success ? (parsed.data as { llm_hints?: unknown }).llm_hints : undefined;
    const ok = parsed?.success === true && (hints == null || hints === own || passes(() => validateLlmHints(hints)));
    if (!ok) refused.push(name);
  }
  return refused;
}

/** The content rule of every write, as the store's schema guard asks it. */
export const breadcrumbContentCheck: ContentCheck = { check: checkBreadcrumbContent, refusing: schemasRefusing };

function passes(f: () => void): boolean {
  try {
    f();
    return true;
  } catch {
    return false;
  }
}

/**
 * Per known object schema, the keys whose value schema refuses `undefined`: a context without one
 * of them can never parse, so that schema is refused without running zod on the whole context (a
 * page context costs about 5 µs per schema that way).
 */
const requiredKeys = new Map<string, readonly string[]>();
for (const [name, schema] of Object.entries(knownContextSchemas)) {
  const shape = (schema as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape;
  if (shape && typeof shape === "object") {
    requiredKeys.set(name, Object.keys(shape).filter((key) => !shape[key]!.safeParse(undefined).success));
  }
}

function lacksRequiredKey(schemaName: string, context: unknown): boolean {
  const keys = requiredKeys.get(schemaName);
  if (!keys) return false;
  const c = context as Record<string, unknown>;
  return keys.some((key) => !Object.hasOwn(c, key) || c[key] === undefined);
}
