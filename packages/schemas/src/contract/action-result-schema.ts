import * as z from "./zod-mini.ts";

// browser.action.result.v1, written with zod/mini (./zod-mini.ts): the extension bundles it.

export const ACTION_ERROR_CODES = [
  "stale_ref",
  "not_found",
  "not_actionable",
  "cross_origin",
  "blocked_by_policy",
  "timeout",
  "invalid_params",
  /** The user stopped the task: the action was dropped before it ran. */
  "cancelled",
] as const;
export const actionErrorCodeSchema = z.enum(ACTION_ERROR_CODES);
export type ActionErrorCode = z.infer<typeof actionErrorCodeSchema>;

export const observationSchema = z.looseObject({
  url: z.string(),
  title: z.string(),
  url_changed: z.boolean(),
});

const id = z.string().check(z.minLength(1), z.maxLength(200));

export const actionResultContextSchema = z
  .looseObject({
    request_id: id,
    action_id: id.check(z.describe("Id of the browser.action.v1 breadcrumb")),
    status: z.enum(["ok", "error"]),
    code: z.optional(actionErrorCodeSchema),
    message: z.optional(z.string().check(z.maxLength(10_000))),
    data: z.optional(z.unknown()),
    observation: observationSchema,
  })
  .check(z.refine((r) => r.status === "ok" || r.code !== undefined, { message: "an error result needs a code", path: ["code"] }));
export type ActionResultContext = z.infer<typeof actionResultContextSchema>;
