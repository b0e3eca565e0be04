import { z } from "zod";

/** The error codes of browser.action.result.v1 (DESIGN.md, contract). */
export const actionErrorCodeSchema = z.enum([
  "stale_ref",
  "not_found",
  "not_actionable",
  "cross_origin",
  "blocked_by_policy",
  "timeout",
  "invalid_params",
]);
export type ActionErrorCode = z.infer<typeof actionErrorCodeSchema>;

/** An action failed for a reason the agent can act on; `code` travels back in the result. */
export class ActionError extends Error {
  override readonly name = "ActionError";
  constructor(
    readonly code: ActionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isActionError(e: unknown): e is ActionError {
  return e instanceof ActionError;
}
