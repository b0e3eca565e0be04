import { ApiResponseError } from "./errors.ts";
import type { CrumbsHttp } from "./http-client.ts";
import type { Breadcrumb, CreateBreadcrumb } from "./known.ts";

type Trigger = Pick<Breadcrumb, "id" | "version" | "tags" | "context">;

/** The trigger's session id, from its `session:<id>` tag or `context.session_id`. */
export function sessionOf(trigger: Pick<Breadcrumb, "tags" | "context">): string | undefined {
  const tag = trigger.tags.find((t) => t.startsWith("session:"));
  if (tag) return tag.slice("session:".length);
  const fromContext = trigger.context.session_id;
  return typeof fromContext === "string" ? fromContext : undefined;
}

/** The idempotency key of output `n` that an agent writes for one version of a trigger. */
function replyKey(agentId: string, trigger: Pick<Breadcrumb, "id" | "version">, n?: number): string {
  return `${agentId}:${trigger.id}:${trigger.version}${n === undefined ? "" : `:${n}`}`;
}

/**
 * Write a breadcrumb in reply to a trigger. The idempotency key makes a
 * redelivered trigger replay the first write instead of writing twice; the
 * trigger's session tag is carried over so the conversation stays together.
 * Resolves to null when this key already wrote a different reply (a model
 * answered differently on a redelivery): the first reply stands.
 */
export async function replyTo<S extends string>(
  http: CrumbsHttp,
  trigger: Trigger,
  body: CreateBreadcrumb<S>,
  opts: { idempotencyKey: string; signal?: AbortSignal },
): Promise<Breadcrumb<S> | null> {
  const tags = new Set(body.tags ?? []);
  for (const t of trigger.tags) if (t.startsWith("session:")) tags.add(t);
  return createOnce(http, { ...body, tags: [...tags] }, opts.idempotencyKey, { signal: opts.signal });
}

/** Create with an idempotency key; null when the key was already used for a different body. */
export async function createOnce<S extends string>(
  http: CrumbsHttp,
  body: CreateBreadcrumb<S>,
  idempotencyKey: string,
  opts: { signal?: AbortSignal } = {},
): Promise<Breadcrumb<S> | null> {
  try {
    return await http.create(body, { idempotencyKey, signal: opts.signal });
  } catch (err) {
    if (err instanceof ApiResponseError && err.code === "idempotency_key_reused") return null;
    throw err;
  }
}

/** Answer a trigger with an `agent.response.v1` in the trigger's session. */
export async function respondTo(
  http: CrumbsHttp,
  trigger: Trigger,
  content: string,
  opts: { agentId: string; n?: number; extraTags?: string[]; signal?: AbortSignal },
): Promise<Breadcrumb<"agent.response.v1"> | null> {
  const session = sessionOf(trigger) ?? "default";
  return replyTo(
    http,
    trigger,
    {
      schema_name: "agent.response.v1",
      title: `${opts.agentId}: ${content.slice(0, 60)}`,
      tags: ["agent:response", `agent:${opts.agentId}`, `session:${session}`, ...(opts.extraTags ?? [])],
      context: {
        agent_id: opts.agentId,
        content,
        session_id: session,
        in_reply_to: { id: trigger.id, version: trigger.version },
      },
    },
    { idempotencyKey: replyKey(opts.agentId, trigger, opts.n), signal: opts.signal },
  );
}
