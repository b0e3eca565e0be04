import type { z } from "zod";
import { validateContext, validateLlmHints, type Breadcrumb } from "@crumbs/schemas";
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
