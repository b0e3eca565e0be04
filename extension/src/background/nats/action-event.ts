import * as z from "@crumbs/schemas/zod-mini";
// The subpath, not the index: the index pulls the llm_hints engine (handlebars, JSONPath) into the worker.
import { browserActionContextSchema } from "@crumbs/schemas/browser-action";
import { looksLikeReferenceEvent } from "@crumbs/schemas/reference-event";
import { entryTaskSchema, type InboxEntry } from "../../shared/state/inbox.ts";

// A browser.action.v1 event from NATS (docs/architecture.md, "Contracts") turned into an inbox entry.
// The payload is validated here, at the boundary: a malformed action is answered with an
// invalid_params result instead of being run or silently dropped.

export const actionEventSchema = z.object({
  type: z.string(),
  id: z.string(),
  schema_name: z.literal("browser.action.v1"),
  breadcrumb: z.object({
    id: z.string(),
    owner: z.string(),
    title: z.string(),
    tags: z.array(z.string()),
    context: z.record(z.string(), z.unknown()),
    created_at: z.string(),
  }),
});

/**
 * An action too large for the NATS server's max_payload arrives as a reference event (no
 * breadcrumb); its breadcrumb comes from the API. Any other payload is returned as it is.
 */
export async function completeActionEvent(payload: unknown, getBreadcrumb: (id: string) => Promise<unknown>): Promise<unknown> {
  if (!looksLikeReferenceEvent(payload)) return payload;
  return { ...payload, breadcrumb: await getBreadcrumb(payload.id) };
}

const tagValue = (tags: string[], prefix: string) => tags.find((t) => t.startsWith(`${prefix}:`))?.slice(prefix.length + 1);

export type Decoded = { kind: "skip"; reason: string } | { kind: "entry"; entry: InboxEntry };

/**
 * Only the bus commands the browser, and only for this extension's owner: an action of another
 * owner (however it reached this consumer) or addressed to another extension is never run.
 */
export function decodeAction(payload: unknown, extensionId: string, owner: string): Decoded {
  const ev = actionEventSchema.safeParse(payload);
  if (!ev.success) return { kind: "skip", reason: "not a browser.action.v1 event" };
  const b = ev.data.breadcrumb;
  if (ev.data.type !== "breadcrumb.created") return { kind: "skip", reason: "not a new action" };
  if (b.owner !== owner) return { kind: "skip", reason: `owned by ${b.owner}, not by this extension's owner ${owner}` };
  if (!b.tags.includes(`extension:${extensionId}`)) return { kind: "skip", reason: "for another extension" };
  const rawTask = b.context.task as { session_id?: unknown; agent_id?: unknown } | undefined;
  const session = tagValue(b.tags, "session") ?? (typeof rawTask?.session_id === "string" ? rawTask.session_id : "default");
  const agent = tagValue(b.tags, "agent") ?? (typeof rawTask?.agent_id === "string" ? rawTask.agent_id : undefined);
  const task = entryTaskSchema.safeParse(b.context.task);
  const base = { action_id: b.id, session, created_at: b.created_at, ...(agent ? { agent } : {}), ...(task.success ? { task: task.data } : {}) };
  const parsed = browserActionContextSchema.safeParse(b.context);
  if (!parsed.success) {
    const requestId = typeof b.context.request_id === "string" && b.context.request_id ? b.context.request_id : `action:${b.id}`;
    const message = `invalid browser.action.v1: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`;
    return {
      kind: "entry",
      entry: {
        ...base,
        request_id: requestId,
        action: String(b.context.action ?? "unknown"),
        params: {},
        title: b.title.slice(0, 200),
        state: "done",
        result: { request_id: requestId, action_id: b.id, status: "error", code: "invalid_params", message, observation: { url: "", title: "", url_changed: false } },
      },
    };
  }
  const c = parsed.data;
  if (c.target_extension !== extensionId) return { kind: "skip", reason: "target_extension names another extension" };
  return {
    kind: "entry",
    entry: {
      ...base,
      request_id: c.request_id,
      action: c.action,
      params: c.params,
      ...(c.tab_id !== undefined ? { tab_id: c.tab_id } : {}),
      ...(c.risk ? { risk: c.risk } : {}),
      title: b.title.slice(0, 200),
      state: "queued",
    },
  };
}
