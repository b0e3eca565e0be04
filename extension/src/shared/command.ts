import * as z from "@crumbs/schemas/zod-mini";
import { BROWSER_ACTIONS } from "@crumbs/schemas/browser-action";
import { refCandidateSchema } from "@crumbs/schemas/action-result";
import { actionErrorCodeSchema } from "./action-error.ts";
import { guardSchema } from "./guard.ts";
import { assessmentSchema } from "./content-messages.ts";

/** Actions the worker runs with chrome.tabs; `tab` names the tab action in `params.action` (background/commands/tabs.ts). */
export const TAB_ACTIONS = ["open", "tab_new", "tab_list", "tab_switch", "tab_close", "tab"] as const;

/** A command `{type, params}`, e.g. `{type: "click", params: {ref: "e3"}}`, optionally aimed at a tab. */
export const commandSchema = z.object({
  // Every action of the contract, plus the `tab` form (`{type: "tab", params: {action}}`).
  type: z.enum([...BROWSER_ACTIONS, "tab"]),
  params: z._default(z.record(z.string(), z.unknown()), {}),
  tab_id: z.optional(z.number().check(z.int())),
  /** From the bus: the checks the page runs right before a write action (content/guard.ts). */
  guard: z.optional(guardSchema),
});
export type Command = z.infer<typeof commandSchema>;

export const executeResultSchema = z.object({
  success: z.boolean(),
  data: z.optional(z.unknown()),
  error: z.optional(z.string()),
  code: z.optional(actionErrorCodeSchema),
  /** The action did not run: it waits for the user's confirmation of this. */
  confirm: z.optional(assessmentSchema),
  /** The ref's element had been replaced by the page: the action ran on this one (refs that heal). */
  rebound: z.optional(z.object({ ref: z.string() })),
  /** A stale ref or an ambiguous selector: the elements that could be meant now. */
  candidates: z.optional(z.array(refCandidateSchema)),
});
export type ExecuteResult = z.infer<typeof executeResultSchema>;

export function isTabAction(type: Command["type"]): boolean {
  return (TAB_ACTIONS as readonly string[]).includes(type);
}
