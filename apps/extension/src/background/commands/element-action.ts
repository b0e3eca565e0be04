import { ActionError } from "../../shared/action-error.ts";
import { parseRef } from "../../snapshot/stitch.ts";
import type { Command } from "../../shared/command.ts";
import { DEFAULT_TIMEOUT_MS, PageRefusal, sendToFrame } from "./content-client.ts";
import { NeedsConfirmation } from "../../shared/action-error.ts";
import { docIdFor } from "./doc-ids.ts";

const MAX_TIMEOUT_MS = 120_000;

/** wait_for and friends carry their own timeout; the channel waits a little longer than they do. */
function channelTimeout(params: Record<string, unknown>): number {
  const own = Number(params.timeout_ms ?? params.timeout ?? 0);
  return Number.isFinite(own) && own > 0 ? Math.min(own + 5_000, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
}

/**
 * Routes an element action to the frame its ref belongs to (`f7e3` -> frame 7, ref e3) and checks the
 * frame still shows the document the ref came from: a reload or navigation gives stale_ref, never an
 * action on whatever now has the same number.
 */
export async function runElementAction(tab: chrome.tabs.Tab, cmd: Command): Promise<unknown> {
  const tabId = tab.id ?? 0;
  const params: Record<string, unknown> = { ...cmd.params };
  let frameId = 0;
  let expectDoc: string | undefined;
  if (params.ref !== undefined) {
    const ref = typeof params.ref === "string" ? parseRef(params.ref) : undefined;
    if (!ref) throw new ActionError("invalid_params", `ref ${JSON.stringify(params.ref)} is not a snapshot ref like e12 or f1e3`);
    frameId = ref.frameId;
    params.ref = ref.local;
    expectDoc = await docIdFor(tabId, frameId);
  }
  try {
    const { data } = await sendToFrame(
      tabId,
      frameId,
      { kind: "action", name: cmd.type, params, expect_doc: expectDoc, ...(cmd.guard ? { guard: cmd.guard } : {}) },
      channelTimeout(params),
    );
    return data;
  } catch (e) {
    // A ref into a frame that has since gone away is stale, not a policy problem.
    // The page's own refusals (the guard's policy checks, a confirmation) are not about the frame.
    const unreachable = !(e instanceof NeedsConfirmation) && !(e instanceof PageRefusal && e.code === "blocked_by_policy");
    if (frameId !== 0 && unreachable && e instanceof ActionError && (e.code === "blocked_by_policy" || e.code === "not_found")) {
      throw new ActionError("stale_ref", `the frame of ref ${String(cmd.params.ref)} is gone; take a new snapshot`);
    }
    throw e;
  }
}
