import type { WireAssessment } from "../../shared/action-error.ts";
import { logActivity } from "../../shared/state/activity.ts";
import { inbox, patchEntry, type InboxEntry } from "../../shared/state/inbox.ts";
import { syncMask } from "./mask.ts";

// Waiting for the user's answer to one high-risk action: the entry shows in the side panel with
// what the page said will happen; the answer comes through storage, so a restarted worker still
// sees it. An entry the user stopped (dropped from the queue) ends the wait at once.

export type Decision = { decision: "approved"; grant: boolean } | { decision: "denied" | "timeout" | "cancelled" };

export async function awaitDecision(entry: InboxEntry, assessment: WireAssessment, deadline: number, now: () => number): Promise<Decision> {
  await patchEntry(entry.request_id, {
    state: "awaiting_confirmation",
    confirm: assessment,
    confirm_by: new Date(deadline).toISOString(),
  });
  void logActivity("confirm", `waiting for your confirmation: ${assessment.sentence}`);
  void syncMask();
  while (now() < deadline) {
    const e = (await inbox.get()).find((x) => x.request_id === entry.request_id);
    if (!e || e.state === "done") return { decision: "cancelled" };
    if (e.decision) {
      // Cleared, so a second high-risk kind found on the next try is asked again.
      await patchEntry(entry.request_id, { decision: undefined, grant: undefined, confirm: undefined, state: "queued" });
      void logActivity("confirm", `${e.decision}: ${assessment.sentence}`, e.decision === "approved");
          return e.decision === "approved" ? { decision: "approved", grant: e.grant === true } : { decision: "denied" };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { decision: "timeout" };
}
