import { NeedsConfirmation, isActionError } from "../../shared/action-error.ts";
import { type Command, commandSchema, type ExecuteResult } from "../../shared/command.ts";
import { isRestrictedUrl, targetTab } from "./active-tab.ts";
import { runElementAction, type ElementActionResult } from "./element-action.ts";
import { runSnapshot } from "./snapshot.ts";
import { captureCandidates } from "./capture-candidates.ts";
import { handleTabCommand, isTabCommand } from "./tabs.ts";
import { ActionError } from "../../shared/action-error.ts";
import { isChromeAccessRefusal, restrictedPageHelp } from "../../shared/restricted-page.ts";

async function run(cmd: Command): Promise<ElementActionResult> {
  // Tab commands, and waits for a URL that may survive a full navigation, run in the worker:
  // a content script dies with its page. The worker hands the page-side part of a wait back here.
  if (isTabCommand(cmd)) {
    const data = await handleTabCommand(cmd, {
      runInPage: async (c) =>
        (
          await runElementAction(await targetTab(c.tab_id), {
            type: "wait_for",
            params: (c.params ?? {}) as Record<string, unknown>,
            tab_id: c.tab_id,
          })
        ).data,
    });
    return { data };
  }
  const tab = await targetTab(cmd.tab_id);
  if (isRestrictedUrl(tab.url)) throw new ActionError("blocked_by_policy", restrictedPageHelp(tab.url) ?? `extensions cannot read or act on ${tab.url}`);
  try {
    if (cmd.type === "snapshot") return { data: await runSnapshot(tab, cmd.params) };
    if (cmd.type === "capture_candidates") return { data: await captureCandidates(tab, cmd.params) };
    return await runElementAction(tab, cmd);
  } catch (e) {
    // A blank tab, or a frame Chrome keeps closed: its raw refusal becomes what the user can do.
    if (!(e instanceof Error) || !isChromeAccessRefusal(e.message)) throw e;
    throw new ActionError("blocked_by_policy", restrictedPageHelp(tab.url) ?? `Chrome does not let extensions read or act in a frame of ${tab.url}`);
  }
}

/**
 * One command (`{type, params}`, command.ts), from the bus executor or a test. Never throws: every failure
 * comes back as `{success: false, error, code}` with one of the contract's error codes.
 */
export async function execute(input: unknown): Promise<ExecuteResult> {
  const parsed = commandSchema.safeParse(input);
  if (!parsed.success) {
    return { success: false, code: "invalid_params", error: `invalid command: ${parsed.error.message}` };
  }
  try {
    const { data, rebound } = await run(parsed.data);
    return { success: true, ...(data === undefined ? {} : { data }), ...(rebound ? { rebound: { ref: rebound } } : {}) };
  } catch (e) {
    if (e instanceof NeedsConfirmation) return { success: false, code: e.code, error: e.message, confirm: e.assessment };
    if (isActionError(e)) return { success: false, code: e.code, error: e.message, ...(e.candidates?.length ? { candidates: e.candidates } : {}) };
    return { success: false, code: "not_actionable", error: e instanceof Error ? e.message : String(e) };
  }
}
