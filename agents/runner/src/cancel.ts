import { createOnce, type Breadcrumb, type BreadcrumbEvent, type CrumbsHttp } from "@crumbs/agent-sdk";
import { TASK_CANCEL_SCHEMA, taskCancelContextSchema } from "@crumbs/schemas";
import type { Agent } from "./agent-def.ts";
import type { ReadKind, SessionReads } from "./session-reads.ts";

/** A session's newest 50 cancels, read together with other reads of sessions. */
const CANCELS: ReadKind = { schemaNames: [TASK_CANCEL_SCHEMA], perSession: 50 };

// The user stopped a task in the browser (browser.task.cancel.v1, written by the extension). The
// runner then takes no further step: no model call, no action; and it records the task as
// cancelled with one agent.response.v1 `status: "cancelled"` (written once, whichever of the cancel
// event, a late action result or a model answer in flight sees it first).

export const CANCELLED_TEXT = "Stopped: you stopped this task in the browser. Nothing more was done.";

export interface TaskRef {
  agentId: string;
  root: { id: string; version: number };
  session: string;
}

/**
 * Whether a cancel names this task (its root), or its whole session without naming a task (the user
 * stopped before the browser saw any action of it) at or after the task began.
 */
export async function isTaskCancelled(sessions: SessionReads, t: TaskRef, startedAt: string): Promise<boolean> {
  const items = await sessions.read(CANCELS, t.session);
  return items.some((b) => {
    const c = taskCancelContextSchema.safeParse(b.context);
    return c.success && (c.data.root ? c.data.root.id === t.root.id : b.created_at >= startedAt);
  });
}

export async function recordCancelled(http: CrumbsHttp, t: TaskRef, extension: string | undefined): Promise<Breadcrumb | null> {
  const tags = ["agent:response", `session:${t.session}`, `agent:${t.agentId}`];
  if (extension) tags.push(`extension:${extension}`);
  return createOnce(
    http,
    {
      schema_name: "agent.response.v1",
      title: `${t.agentId}: cancelled`,
      tags,
      context: { agent_id: t.agentId, content: CANCELLED_TEXT, session_id: t.session, in_reply_to: t.root, status: "cancelled", final: true },
    },
    `${t.agentId}:${t.root.id}:${t.root.version}:cancelled`,
  );
}

/** A cancel event: record the task of a hosted agent as cancelled at once. */
export async function handleCancel(
  http: CrumbsHttp,
  findAgent: (owner: string, agentId: string) => Agent | undefined,
  event: BreadcrumbEvent,
): Promise<void> {
  if (event.type !== "breadcrumb.created") return;
  const c = taskCancelContextSchema.safeParse(event.breadcrumb.context);
  if (!c.success || !c.data.agent_id || !c.data.root) return;
  if (!findAgent(event.breadcrumb.owner, c.data.agent_id)) return;
  await recordCancelled(http, { agentId: c.data.agent_id, root: c.data.root, session: c.data.session_id }, c.data.extension_id);
}
