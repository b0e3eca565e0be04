import type { z } from "zod";
import { createBreadcrumbBodySchema, patchBreadcrumbBodySchema, type CreateBreadcrumbBody, type PatchBreadcrumbBody } from "./breadcrumb.ts";
import { InvalidRequestError, issuesFrom } from "./errors.ts";
import { isPlainObject } from "../json-values.ts";
import { validateContext } from "./known-schemas.ts";
import { validateLlmHints } from "../llm-view/llm-hints-validate.ts";

// One call per write body that yields the contract's error codes: a bad envelope is 400
// invalid_request, bad hints 422 invalid_llm_hints, a context that breaks its schema 422
// schema_validation_failed.

function checkEnvelope<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const first = result.error.issues[0];
    const at = first?.path.length ? `${first.path.join(".")}: ` : "";
    throw new InvalidRequestError(`invalid body: ${at}${first?.message ?? "invalid"}`, { issues: issuesFrom(result.error.issues) });
  }
  return result.data;
}

function checkTopLevelHints(body: unknown): void {
  if (isPlainObject(body) && body.llm_hints !== undefined && body.llm_hints !== null) validateLlmHints(body.llm_hints);
}

export function parseCreateBreadcrumbBody(body: unknown): CreateBreadcrumbBody {
  checkTopLevelHints(body);
  const parsed = checkEnvelope(createBreadcrumbBodySchema, body);
  return { ...parsed, context: validateContext(parsed.schema_name, parsed.context) };
}

/** `schemaName` is the stored breadcrumb's, since a patch cannot change it. */
export function parsePatchBreadcrumbBody(body: unknown, schemaName: string): PatchBreadcrumbBody {
  checkTopLevelHints(body);
  const parsed = checkEnvelope(patchBreadcrumbBodySchema, body);
  return parsed.context === undefined ? parsed : { ...parsed, context: validateContext(schemaName, parsed.context) };
}
