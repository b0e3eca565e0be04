import type { ActionErrorCode, RefCandidate } from "@crumbs/schemas/action-result";

// The error codes are the contract's, from the light subpath of @crumbs/schemas (no template engine in the bundle).
export { actionErrorCodeSchema, type ActionErrorCode } from "@crumbs/schemas/action-result";

/** An action failed for a reason the agent can act on; `code` travels back in the result. */
export class ActionError extends Error {
  override readonly name = "ActionError";
  constructor(
    readonly code: ActionErrorCode,
    message: string,
    /** Elements that could be meant (a stale ref, an ambiguous selector): the agent picks one by ref. */
    readonly candidates?: RefCandidate[],
  ) {
    super(message);
  }
}

export function isActionError(e: unknown): e is ActionError {
  return e instanceof ActionError;
}

/** Shape of a risk assessment on the wire between the content script and the worker. */
export interface WireAssessment {
  risk: "low" | "medium" | "high";
  kind?: string | undefined;
  sentence: string;
  site: string;
}

/** A high-risk action the user has not approved: not run; the worker asks and sends it again. */
export class NeedsConfirmation extends ActionError {
  constructor(readonly assessment: WireAssessment) {
    super("blocked_by_policy", `needs the user's confirmation: ${assessment.sentence}`);
  }
}
