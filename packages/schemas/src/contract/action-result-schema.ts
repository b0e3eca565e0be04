import { z } from "zod";

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

export const actionResultContextSchema = z
  .looseObject({
    request_id: z.string().min(1).max(200),
    action_id: z.string().min(1).max(200).describe("Id of the browser.action.v1 breadcrumb"),
    status: z.enum(["ok", "error"]),
    code: actionErrorCodeSchema.optional(),
    message: z.string().max(10_000).optional(),
    data: z.unknown().optional(),
    observation: observationSchema,
  })
  .refine((r) => r.status === "ok" || r.code !== undefined, { message: "an error result needs a code", path: ["code"] });
export type ActionResultContext = z.infer<typeof actionResultContextSchema>;
