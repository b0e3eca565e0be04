import type { NatsConnection, Subscription } from "nats.ws";
import * as z from "@crumbs/schemas/zod-mini";
import { SUBJECT_PREFIX } from "@crumbs/schemas/nats-names";
import { looksLikeReferenceEvent } from "@crumbs/schemas/reference-event";
import { noteTask, tasks } from "../../shared/state/control.ts";
import { ungroupTask } from "./tab-group.ts";

// The end of an agent's task, as the worker learns it: the runner's answer that ends it
// (agent.response.v1 with `final`, or `status: "cancelled"`) on the owner's chat-answer subject,
// which the extension's NATS credentials let it read (SECURITY.md, "NATS"). Then the side panel's
// "Agent at work" card goes at once and the task's tab group is taken apart.

const responseEventSchema = z.object({
  type: z.string(),
  breadcrumb: z.object({
    tags: z.array(z.string()),
    context: z.object({
      session_id: z.string(),
      final: z.optional(z.boolean()),
      status: z.optional(z.string()),
    }),
  }),
});

/** The session whose task this event ends, for this extension; undefined for anything else. */
export function endedSession(payload: unknown, extensionId: string): string | undefined {
  const ev = responseEventSchema.safeParse(payload);
  if (!ev.success || ev.data.type !== "breadcrumb.created") return undefined;
  const { tags, context } = ev.data.breadcrumb;
  if (!tags.includes(`extension:${extensionId}`)) return undefined;
  return context.final === true || context.status === "cancelled" ? context.session_id : undefined;
}

export async function endTask(session: string): Promise<void> {
  const view = (await tasks.get())[session];
  if (view && view.state !== "stopped") await noteTask(session, { state: "done" });
  await ungroupTask(session);
}

export function watchTaskEnds(
  nc: NatsConnection,
  opts: { owner: string; extensionId: string; getBreadcrumb(id: string): Promise<unknown> },
): { stop(): Promise<void> } {
  const sub: Subscription = nc.subscribe(`${SUBJECT_PREFIX}.${opts.owner}.created.agent.response.v1`);
  void (async () => {
    for await (const msg of sub) {
      try {
        let payload: unknown = msg.json();
        // A long answer comes as a reference event: its breadcrumb from the API.
        if (looksLikeReferenceEvent(payload)) payload = { ...payload, breadcrumb: await opts.getBreadcrumb(payload.id) };
        const session = endedSession(payload, opts.extensionId);
        if (session) await endTask(session);
      } catch {
        // Unreadable, or the API away for a long answer: the card's age-out covers it.
      }
    }
  })();
  return { stop: async () => sub.unsubscribe() };
}
