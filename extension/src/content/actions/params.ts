import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { roleSelectorSchema, type RoleSelector } from "../dom/resolve-target.ts";

// The pieces every verb's params share: a target (a ref, or a role, text or css selector) and a timeout. Each
// verb's own schema is in its file. They accept what the contract's `actionParamsSchemas` (@crumbs/schemas)
// accepts, with the same meaning (params.test.ts), and a little more for the command form (`crumbs.execute`):
// `timeout_ms`, `nth` on text and css selectors, `label` for select, `top`/`bottom` for scroll.

export const targetShape = { ref: z.optional(z.string().check(z.minLength(1))), selector: z.optional(roleSelectorSchema) };
export const timeout = z.optional(z.number().check(z.int(), z.gte(0), z.lte(120_000)));

export function needsTarget<T extends { ref?: string | undefined; selector?: RoleSelector | undefined }>(v: T) {
  return v.ref !== undefined || v.selector !== undefined;
}
export const targetMessage = { message: "give `ref` (from the last snapshot) or `selector` ({role, name?} | {text} | {css})" };

export const targetParams = z
  .object({ ...targetShape, timeout_ms: timeout })
  .check(z.refine(needsTarget, targetMessage));
export type TargetParams = z.infer<typeof targetParams>;

/** Parse params or throw `invalid_params` with zod's readable summary. */
export function parseParams<S extends z.ZodMiniType>(schema: S, params: unknown): z.infer<S> {
  const result = schema.safeParse(params ?? {});
  if (!result.success) throw new ActionError("invalid_params", `invalid params: ${z.prettifyError(result.error)}`);
  return result.data;
}
