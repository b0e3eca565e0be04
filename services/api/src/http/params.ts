import { createHash } from "node:crypto";
import { z } from "zod";
import { issuesFrom, parseSelectorParam } from "@crumbs/schemas";
import { InvalidRequestError, NotFoundError, PreconditionRequiredError } from "../errors.ts";
import type { SelectorFilter } from "../store/index.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a uuid cannot name a breadcrumb: 404, without asking Postgres to cast it. */
export function breadcrumbIdParam(id: string): string {
  if (!UUID.test(id)) throw new NotFoundError(`breadcrumb ${id.slice(0, 100)} not found`);
  return id.toLowerCase();
}

/** `If-Match: "3"` (also W/"3" and a bare 3). Required on PATCH, optional on DELETE. */
export function ifMatchVersion(header: string | undefined, required: true): number;
export function ifMatchVersion(header: string | undefined, required: false): number | undefined;
export function ifMatchVersion(header: string | undefined, required: boolean): number | undefined {
  if (header === undefined || header.trim() === "") {
    if (required) throw new PreconditionRequiredError();
    return undefined;
  }
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!m) throw new InvalidRequestError('If-Match must be "<version>", e.g. "3"');
  return Number(m[1]);
}

const idempotencyKeySchema = z.string().min(1).max(200).regex(/^[\x21-\x7e]+$/);

export function idempotencyParam(
  header: string | undefined,
  parts: { method: string; path: string; ifMatch?: number; body: unknown; mediaType?: string },
) {
  if (header === undefined) return undefined;
  const key = idempotencyKeySchema.safeParse(header);
  if (!key.success) throw new InvalidRequestError("Idempotency-Key must be 1-200 visible ASCII characters");
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([parts.method, parts.path, parts.ifMatch ?? null, parts.body, ...(parts.mediaType ? [parts.mediaType] : [])]))
    .digest("hex");
  return { key: key.data, fingerprint };
}

export const MAX_SELECTOR_PARAM = 16_384;

/** `?selector=<JSON>`: validated and compiled by @crumbs/schemas (422 invalid_selector on anything wrong). */
export function selectorParam(json: string | undefined): SelectorFilter | undefined {
  // A blank `selector=` means no selector, like an absent one.
  if (json === undefined || json.trim() === "") return undefined;
  if (json.length > MAX_SELECTOR_PARAM) {
    throw new InvalidRequestError(`query parameter selector: longer than ${MAX_SELECTOR_PARAM} characters`, {
      issues: [{ path: ["selector"], code: "too_big", message: `at most ${MAX_SELECTOR_PARAM} characters` }],
    });
  }
  const compiled = parseSelectorParam(json);
  return { spec: compiled.selector, matches: (b, budget) => compiled.matches(b, budget) };
}

/** Query strings through zod; any failure is a 400 naming the parameter. */
export function parseQuery<T extends z.ZodType>(schema: T, query: Record<string, unknown>): z.infer<T> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidRequestError(`query parameter ${String(issue?.path[0] ?? "")}: ${issue?.message ?? "invalid"}`, {
      issues: issuesFrom(parsed.error.issues),
    });
  }
  return parsed.data;
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw bodyError(parsed.error.issues);
  return parsed.data;
}

/** 400 whose message names the first offending field (`ttl_seconds: Too big: ...`); every issue is in details. */
export function bodyError(issues: z.core.$ZodIssue[]): InvalidRequestError {
  const first = issues[0];
  const field = first?.path.length ? first.path.map(String).join(".") : undefined;
  const what = field ? `body field ${field}: ${first?.message ?? "invalid"}` : (first?.message ?? "invalid");
  return new InvalidRequestError(`the body does not match the request schema: ${what}`, { issues: issuesFrom(issues) });
}

export const limitParam = (max: number, dflt: number) => z.coerce.number().int().min(1).max(max).default(dflt);
