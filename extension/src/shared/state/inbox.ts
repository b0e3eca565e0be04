import * as z from "@crumbs/schemas/zod-mini";
import { refCandidateSchema } from "@crumbs/schemas/action-result";
import { stored } from "./store.ts";

// Actions accepted from the bus, in storage: the consumer stores an action (and remembers its
// request_id) before it acks, the runner works through them, so a stopped worker or browser loses
// nothing and runs nothing twice.

/** browser.action.result.v1 as the worker keeps it until written (@crumbs/schemas/action-result). */
export const resultContextSchema = z.object({
  request_id: z.string(),
  action_id: z.string(),
  status: z.enum(["ok", "error"]),
  code: z.optional(z.string()),
  message: z.optional(z.string()),
  data: z.optional(z.unknown()),
  rebound: z.optional(z.boolean()),
  ref: z.optional(z.string()),
  candidates: z.optional(z.array(refCandidateSchema)),
  observation: z.object({ url: z.string(), title: z.string(), url_changed: z.boolean() }),
});
export type ResultContext = z.infer<typeof resultContextSchema>;

/** The task an agent's action belongs to (`task` in its context, written by the runner). */
export const entryTaskSchema = z.object({
  agent_id: z.string(),
  root: z.object({ id: z.string(), version: z.number().check(z.int()) }),
  step: z.number().check(z.int()),
  max_steps: z.optional(z.number().check(z.int())),
});
export type EntryTask = z.infer<typeof entryTaskSchema>;

export const inboxEntrySchema = z.object({
  request_id: z.string(),
  action_id: z.string(),
  action: z.string(),
  params: z.record(z.string(), z.unknown()),
  tab_id: z.optional(z.number().check(z.int())),
  risk: z.optional(z.enum(["low", "medium", "high"])),
  session: z.string(),
  agent: z.optional(z.string()),
  title: z.string(),
  created_at: z.string(),
  state: z.enum(["queued", "awaiting_confirmation", "running", "done"]),
  /** ISO time after which an unanswered confirmation fails with `timeout`. */
  confirm_by: z.optional(z.string()),
  decision: z.optional(z.enum(["approved", "denied"])),
  /** The user chose "always allow this kind on this site" with the approval. */
  grant: z.optional(z.boolean()),
  /** What the page said will happen, shown to the user while the action waits. */
  confirm: z.optional(z.object({ risk: z.string(), kind: z.optional(z.string()), sentence: z.string(), site: z.string() })),
  /** Risk kinds the user approved for this action (it may need more than one, asked one at a time). */
  approved: z.optional(z.array(z.string())),
  task: z.optional(entryTaskSchema),
  /** Set once the action ran (or was refused); posted until the API accepts it. */
  result: z.optional(resultContextSchema),
});
export type InboxEntry = z.infer<typeof inboxEntrySchema>;

export const INBOX_KEY = "crumbs.inbox";
export const HANDLED_KEY = "crumbs.handled";
/** Request ids remembered; the oldest are forgotten first. A redelivery comes within minutes. */
export const MAX_HANDLED = 2_000;

export const inbox = stored(INBOX_KEY, z.array(inboxEntrySchema), () => []);
export const handled = stored(HANDLED_KEY, z.array(z.string()), () => []);

/**
 * Accepts an entry unless its request_id was seen before. The id is remembered first: a crash
 * between the two writes can lose the action (it is reported by nobody) but never run it twice.
 */
export async function accept(entry: InboxEntry): Promise<boolean> {
  let fresh = false;
  await handled.update((ids) => {
    if (ids.includes(entry.request_id)) return ids;
    fresh = true;
    return [...ids, entry.request_id].slice(-MAX_HANDLED);
  });
  if (fresh) await inbox.update((list) => [...list, entry]);
  return fresh;
}

export function patchEntry(requestId: string, patch: Partial<InboxEntry>): Promise<InboxEntry[]> {
  return inbox.update((list) => list.map((e) => (e.request_id === requestId ? { ...e, ...patch } : e)));
}

export function removeEntry(requestId: string): Promise<InboxEntry[]> {
  return inbox.update((list) => list.filter((e) => e.request_id !== requestId));
}
