import { z } from "zod";
import type { CreateBreadcrumb, PatchBreadcrumb } from "@crumbs/agent-sdk";
import { CliError } from "./errors.ts";

const PATCHABLE = ["title", "tags", "context", "llm_hints"] as const;

const putInputSchema = z.looseObject({
  id: z.string().min(1).optional(),
  version: z.number().int().min(1).optional(),
});

// The bodies go as the file has them, typed as what they should be: the API validates them and
// answers with what is wrong, which the CLI prints.
export type PutPlan = { method: "POST"; body: CreateBreadcrumb } | { method: "PATCH"; id: string; body: PatchBreadcrumb; ifMatch: number };

/**
 * What `crumbs put` sends for a document: no `id` creates it; an `id` patches it with If-Match
 * taken from its `version`, so `crumbs get ID > f.json`, edit, `crumbs put f.json` is a safe
 * optimistic update. Fields the server owns (owner, timestamps, ...) are left out of a patch.
 */
export function planPut(doc: unknown): PutPlan {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new CliError("invalid_request", "the document must be a JSON object");
  }
  const parsed = putInputSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError("invalid_request", `${issue?.path.join(".")}: ${issue?.message}`);
  }
  const { id, version, ...rest } = parsed.data;
  if (id === undefined) {
    return { method: "POST", body: rest as CreateBreadcrumb };
  }
  if (version === undefined) {
    throw new CliError("invalid_request", `"version" is required to update ${id} (it becomes If-Match)`);
  }
  const body: Record<string, unknown> = {};
  for (const field of PATCHABLE) if (field in rest) body[field] = rest[field];
  return { method: "PATCH", id, body: body as PatchBreadcrumb, ifMatch: version };
}
