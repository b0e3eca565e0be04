import * as z from "@crumbs/schemas/zod-mini";
import { stored } from "./store.ts";

// Connection status for the side panel and the options page, written by the worker.

const partSchema = z.object({
  state: z.enum(["not_configured", "connecting", "connected", "disconnected", "error"]),
  detail: z.optional(z.string()),
  at: z.string(),
});

export const statusSchema = z.object({
  nats: z.optional(partSchema),
  api: z.optional(partSchema),
  context: z.optional(
    z.partial(
      z.object({ id: z.string(), version: z.number(), url: z.string(), tabId: z.number(), at: z.string(), error: z.optional(z.string()) }),
    ),
  ),
});
export type BusStatus = z.infer<typeof statusSchema>;
export type StatusPart = z.infer<typeof partSchema>;

export const STATUS_KEY = "crumbs.status";
export const busStatus = stored(STATUS_KEY, statusSchema, () => ({}));

export function setStatus(part: "nats" | "api", state: StatusPart["state"], detail?: string): Promise<unknown> {
  return busStatus
    .update((s) => {
      const prev = s[part];
      // Unchanged state: skip the write, the panel re-renders on every storage change.
      if (prev && prev.state === state && prev.detail === detail) return s;
      return { ...s, [part]: { state, ...(detail ? { detail } : {}), at: new Date().toISOString() } };
    })
    // The status is written again at its next change; a lost write must not stop the caller.
    .catch(() => {});
}

export function setContextStatus(c: NonNullable<BusStatus["context"]>): Promise<unknown> {
  // As setStatus: written again at the next context change.
  return busStatus.update((s) => ({ ...s, context: { ...s.context, ...c, at: new Date().toISOString() } })).catch(() => {});
}
