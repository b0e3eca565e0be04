import { createHash } from "node:crypto";
import { createOnce, type Breadcrumb, type CrumbsHttp } from "@crumbs/agent-sdk";
import type { Agent } from "./agent-def.ts";
import type { BrowserAction } from "./llm/browser-tools.ts";
import { outputKey, type Task } from "./task.ts";

export interface OutputTarget {
  agent: Agent;
  /** The breadcrumb that started the task, at the version that started it. */
  root: { id: string; version: number };
  step: number;
  session: string;
  extension: string | undefined;
}

export interface PlannedAction {
  toolCallId: string;
  action: BrowserAction;
  params: Record<string, unknown>;
}

const READ_ONLY = new Set<string>([
  "snapshot",
  "extract",
  "get",
  "is",
  "wait_for",
  "tab_list",
  "hover",
  "scroll",
  "focus",
]);

/** Risk the extension uses to ask the user first: submitting a form has effects outside the page. */
export function riskOf(action: BrowserAction): "low" | "medium" | "high" {
  if (action === "submit") return "high";
  return READ_ONLY.has(action) ? "low" : "medium";
}

/** A request id derived from the idempotency key, so a replayed write and its request id agree. */
function requestIdFor(key: string): string {
  const h = createHash("sha256").update(key).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Write one step's outputs: browser actions first, then the text answer.
 * Each has an idempotency key from the trigger, the step and its position, so
 * a redelivered trigger writes nothing twice.
 */
export async function writeOutputs(
  http: CrumbsHttp,
  target: OutputTarget,
  out: { actions: PlannedAction[]; text: string | undefined },
): Promise<Breadcrumb[]> {
  const { agent, root, step, session, extension } = target;
  const agentId = agent.def.agent_id;
  const written: Breadcrumb[] = [];
  let n = 0;
  for (const [index, a] of out.actions.entries()) {
    if (!extension) break;
    const key = outputKey(agentId, root, step, n++);
    const task: Task = {
      agent_id: agentId,
      root,
      session_id: session,
      step,
      tool_call_id: a.toolCallId,
      index,
    };
    // null: a redelivery where the model chose differently; the first write stands.
    const b = await createOnce(
      http,
      {
        schema_name: "browser.action.v1",
        title: `${agentId}: ${a.action}${describeTarget(a.params)}`,
        tags: ["browser:action", `extension:${extension}`, `session:${session}`, `agent:${agentId}`],
        context: {
          action: a.action,
          params: a.params,
          target_extension: extension,
          request_id: requestIdFor(key),
          risk: riskOf(a.action),
          task,
        },
      },
      key,
    );
    if (b) written.push(b);
  }
  if (out.text !== undefined) {
    const tags = ["agent:response", `session:${session}`, `agent:${agentId}`];
    if (extension) tags.push(`extension:${extension}`);
    const b = await createOnce(
      http,
      {
        schema_name: "agent.response.v1",
        title: `${agentId}: ${out.text.replace(/\s+/g, " ").slice(0, 80) || "(empty)"}`,
        tags,
        context: { agent_id: agentId, content: out.text, session_id: session, in_reply_to: root },
      },
      outputKey(agentId, root, step, n++),
    );
    if (b) written.push(b);
  }
  return written;
}

function describeTarget(params: Record<string, unknown>): string {
  if (typeof params.ref === "string") return ` ${params.ref}`;
  if (typeof params.url === "string") return ` ${params.url}`;
  return "";
}
