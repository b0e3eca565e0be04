import { createHash } from "node:crypto";
import { createOnce, type Breadcrumb, type CrumbsHttp } from "@crumbs/agent-sdk";
import { READ_ACTIONS } from "@crumbs/schemas";
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
  maxSteps?: number;
}

export interface PlannedAction {
  toolCallId: string;
  action: BrowserAction;
  params: Record<string, unknown>;
  /**
   * Refused by the runner before any browser saw it (a secret field): stored with its value
   * withheld, addressed to no extension, and answered here with this result.
   */
  refusal?: { code: "blocked_by_policy"; message: string };
}

/**
 * The writer's hint. The extension decides the risk itself from what the action will do on the
 * page; this can only raise it.
 */
export function riskOf(action: BrowserAction): "low" | "medium" | "high" {
  if (action === "submit") return "high";
  return READ_ACTIONS.has(action) ? "low" : "medium";
}

/** A request id derived from the idempotency key, so a replayed write and its request id agree. */
export function requestIdFor(key: string): string {
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
  const refused: Array<{ b: Breadcrumb; a: PlannedAction & { refusal: NonNullable<PlannedAction["refusal"]> }; key: string; requestId: string }> = [];
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
      ...(target.maxSteps ? { max_steps: target.maxSteps } : {}),
    };
    const requestId = requestIdFor(key);
    // A refused action names no extension (no extension:<id> tag), so no browser runs it.
    const tags = a.refusal
      ? ["browser:action", "browser:refused", `session:${session}`, `agent:${agentId}`]
      : ["browser:action", `extension:${extension}`, `session:${session}`, `agent:${agentId}`];
    // null: a redelivery where the model chose differently; the first write stands.
    const b = await createOnce(
      http,
      {
        schema_name: "browser.action.v1",
        title: `${agentId}: ${a.action}${describeTarget(a.params)}${a.refusal ? " (refused)" : ""}`,
        tags,
        context: {
          action: a.action,
          params: a.params,
          target_extension: extension,
          request_id: requestId,
          risk: riskOf(a.action),
          task,
          ...(a.refusal ? { refused: a.refusal } : {}),
        },
      },
      key,
    );
    if (b) written.push(b);
    if (b && a.refusal) refused.push({ b, a: { ...a, refusal: a.refusal }, key, requestId });
  }
  // After every action of the step exists: a result continues the task once all of the step's are in.
  for (const { b, a, key, requestId } of refused) {
    // The answer the model reads, as if a browser had refused it; it continues the task like any result.
    const r = await createOnce(
      http,
      {
        schema_name: "browser.action.result.v1",
        title: `${agentId}: ${a.action}: ${a.refusal.code}`,
        tags: ["browser:action-result", "browser:refused", `session:${session}`, `agent:${agentId}`],
        context: {
          request_id: requestId,
          action_id: b.id,
          status: "error",
          code: a.refusal.code,
          message: a.refusal.message,
          observation: { url: "", title: "", url_changed: false },
        },
      },
      `${key}:refused`,
    );
    if (r) written.push(r);
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
        // Without an action beside it the answer is the task's last word: the browser may let go.
        context: { agent_id: agentId, content: out.text, session_id: session, in_reply_to: root, ...(out.actions.length ? {} : { final: true }) },
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
