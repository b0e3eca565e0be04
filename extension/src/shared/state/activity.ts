import * as z from "@crumbs/schemas/zod-mini";
import { stored } from "./store.ts";

// The activity log the side panel shows: what the worker did, newest last, bounded. Stored, so
// the panel sees entries written while it was closed and across worker restarts.

export const activityEntrySchema = z.object({
  at: z.string(),
  kind: z.enum(["context", "action", "result", "policy", "confirm", "chat", "connection", "error"]),
  text: z.string(),
  ok: z.optional(z.boolean()),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const ACTIVITY_KEY = "crumbs.activity";
const MAX_ENTRIES = 200;

export const activityLog = stored(ACTIVITY_KEY, z.array(activityEntrySchema), () => []);

export function logActivity(kind: ActivityEntry["kind"], text: string, ok?: boolean): Promise<unknown> {
  const entry: ActivityEntry = { at: new Date().toISOString(), kind, text: text.slice(0, 500), ...(ok === undefined ? {} : { ok }) };
  // A failed write of the log itself has nowhere to be shown: that entry is lost, the caller goes on.
  return activityLog.update((list) => [...list, entry].slice(-MAX_ENTRIES)).catch(() => {});
}
