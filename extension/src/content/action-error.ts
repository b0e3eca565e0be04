import type { ActionErrorCode } from "@crumbs/schemas/action-result";

// The error codes are the contract's, from the light subpath of @crumbs/schemas (no template engine in the bundle).
export { actionErrorCodeSchema, type ActionErrorCode } from "@crumbs/schemas/action-result";

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
