import { z } from "zod";
import { BROWSER_ACTIONS } from "@crumbs/schemas/browser-action";
import { actionErrorCodeSchema } from "./action-error.ts";
import { guardSchema } from "./guard.ts";
import { assessmentSchema } from "./content-messages.ts";

/** Actions the worker runs with chrome.tabs; `tab` names the tab action in `params.action` (background/commands/tabs.ts). */
export const TAB_ACTIONS = ["open", "tab_new", "tab_list", "tab_switch", "tab_close", "tab"] as const;

/** A command `{type, params}`, e.g. `{type: "click", params: {ref: "e3"}}`, optionally aimed at a tab. */
export const commandSchema = z.object({
  // Every action of the contract, plus the `tab` form (`{type: "tab", params: {action}}`).
  type: z.enum([...BROWSER_ACTIONS, "tab"]),
  params: z.record(z.string(), z.unknown()).default({}),
  tab_id: z.number().int().optional(),
  /** From the bus: the checks the page runs right before a write action (content/guard.ts). */
  guard: guardSchema.optional(),
});
export type Command = z.infer<typeof commandSchema>;

export const executeResultSchema = z.object({
  success: z.boolean(),
  data: z.unknown().optional(),
  error: z.string().optional(),
  code: actionErrorCodeSchema.optional(),
  /** The action did not run: it waits for the user's confirmation of this. */
  confirm: assessmentSchema.optional(),
});
export type ExecuteResult = z.infer<typeof executeResultSchema>;

export function isTabAction(type: Command["type"]): boolean {
  return (TAB_ACTIONS as readonly string[]).includes(type);
}
