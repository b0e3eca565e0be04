import { z } from "zod";
import { ActionError } from "../../shared/action-error.ts";

// Content-side parsing of action params. Names mirror `actionParamsSchemas` in @crumbs/schemas (checked by
// params.test.ts); they are repeated here so the content script, injected in every frame, does not bundle the
// whole schemas package (handlebars, jsonpath) for a dozen small objects.

export const roleSelectorSchema = z.union([
  z.object({
    role: z.string().min(1),
    name: z.string().optional(),
    exact: z.boolean().optional(),
    nth: z.number().int().min(0).optional(),
  }),
  z.object({ text: z.string().min(1), nth: z.number().int().min(0).optional() }),
  z.object({ css: z.string().min(1), nth: z.number().int().min(0).optional() }),
]);
export type RoleSelector = z.infer<typeof roleSelectorSchema>;

const targetShape = { ref: z.string().min(1).optional(), selector: roleSelectorSchema.optional() };
const timeout = z.number().int().min(0).max(120_000).optional();

function needsTarget<T extends { ref?: string | undefined; selector?: RoleSelector | undefined }>(v: T) {
  return v.ref !== undefined || v.selector !== undefined;
}
const targetMessage = { message: "give `ref` (from the last snapshot) or `selector` ({role, name?} | {text} | {css})" };

export const targetParams = z.object({ ...targetShape, timeout_ms: timeout }).refine(needsTarget, targetMessage);
export type TargetParams = z.infer<typeof targetParams>;

export const fillParams = z
  .object({ ...targetShape, value: z.string(), timeout_ms: timeout })
  .refine(needsTarget, targetMessage);

export const typeParams = z
  .object({
    ...targetShape,
    value: z.string().optional(),
    // the command form (background/command.ts) may call it `text`
    text: z.string().optional(),
    delay: z.number().int().min(0).max(1_000).optional(),
    timeout_ms: timeout,
  })
  .refine((v) => v.value !== undefined || v.text !== undefined, { message: "give `value`: the text to type" });

export const pressParams = z.object({ ...targetShape, key: z.string().min(1), timeout_ms: timeout });

export const selectParams = z
  .object({
    ...targetShape,
    value: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    label: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    timeout_ms: timeout,
  })
  .refine(needsTarget, targetMessage)
  .refine((v) => v.value !== undefined || v.label !== undefined, { message: "give `value` (option value or label)" });

export const scrollParams = z.object({
  ...targetShape,
  direction: z.enum(["up", "down", "left", "right", "top", "bottom"]).optional(),
  amount: z.number().min(0).max(1_000_000).optional(),
});

export const submitParams = z.object({ ...targetShape, timeout_ms: timeout });

export const untilSchema = z
  .object({
    url: z.string().optional(),
    selector: z.union([roleSelectorSchema, z.string().min(1)]).optional(),
    text: z.string().min(1).optional(),
    network_idle: z.boolean().optional(),
  })
  .optional();

export const waitForParams = z.object({ until: untilSchema, timeout_ms: timeout });

export const extractParams = z.object({
  ...targetShape,
  fields: z.array(z.string().min(1)).max(50).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

export const getParams = z
  .object({
    ...targetShape,
    what: z.enum(["text", "value", "attribute", "title", "url", "html"]),
    name: z.string().min(1).optional(),
    max_chars: z.number().int().min(1).max(50_000).optional(),
  })
  .refine((v) => v.what !== "attribute" || v.name !== undefined, { message: "`what: attribute` needs `name`" })
  .refine((v) => ["title", "url"].includes(v.what) || needsTarget(v), targetMessage);

export const isParams = z
  .object({ ...targetShape, state: z.enum(["visible", "enabled", "checked", "editable"]) })
  .refine(needsTarget, targetMessage);

/** Parse params or throw `invalid_params` with zod's readable summary. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.infer<S> {
  const result = schema.safeParse(params ?? {});
  if (!result.success) throw new ActionError("invalid_params", `invalid params: ${z.prettifyError(result.error)}`);
  return result.data;
}
