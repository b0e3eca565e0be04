import { randomUUID } from "node:crypto";
import { waitFor, type RecordedRequest } from "@crumbs/testkit";
import type { Breadcrumb } from "../../src/shared/api-client.ts";
import type { E2E } from "./stack.ts";

// Helpers for tests that talk to the extension over the bus the way an agent does: write a
// browser.action.v1 through the API, wait for its browser.action.result.v1.

export interface ActionInput {
  action: string;
  params?: Record<string, unknown>;
  tab_id?: number;
  risk?: "low" | "medium" | "high";
  session?: string;
}

export async function sendAction(e: E2E, a: ActionInput): Promise<{ action: Breadcrumb; request_id: string }> {
  const request_id = randomUUID();
  const session = a.session ?? "e2e";
  const action = await e.client.create({
    schema_name: "browser.action.v1",
    title: `test: ${a.action}`,
    tags: ["browser:action", `extension:${e.extensionId}`, `session:${session}`],
    context: {
      action: a.action,
      params: a.params ?? {},
      target_extension: e.extensionId,
      request_id,
      ...(a.tab_id !== undefined ? { tab_id: a.tab_id } : {}),
      ...(a.risk ? { risk: a.risk } : {}),
    },
  });
  return { action, request_id };
}

export async function resultsFor(e: E2E, requestId: string): Promise<Breadcrumb[]> {
  return e.client.list({
    schema_name: "browser.action.result.v1",
    selector: { context_match: [{ path: "$.request_id", op: "eq", value: requestId }] },
  });
}

export interface ResultContext {
  request_id: string;
  action_id: string;
  status: "ok" | "error";
  code?: string;
  message?: string;
  data?: Record<string, unknown>;
  observation: { url: string; title: string; url_changed: boolean };
}

export async function waitResult(e: E2E, requestId: string, timeout = 10_000): Promise<ResultContext> {
  const [r] = await waitFor(async () => {
    const found = await resultsFor(e, requestId);
    return found.length ? found : undefined;
  }, { timeout, message: `result of ${requestId}` });
  return r!.context as unknown as ResultContext;
}

export async function act(e: E2E, a: ActionInput, timeout?: number): Promise<ResultContext> {
  const { request_id } = await sendAction(e, a);
  return waitResult(e, request_id, timeout);
}

/** The ref on the first snapshot line containing `needle`. */
export function refIn(text: string, needle: string): string {
  const line = text.split("\n").find((l) => l.includes(needle) && /\[ref=/.test(l));
  const ref = line?.match(/\[ref=([a-z0-9]+)\]/)?.[1];
  if (!ref) throw new Error(`no ref for ${needle} in:\n${text}`);
  return ref;
}

/** The ref of `role "name"` in the snapshot the runner put in the model's prompt (as JSON text). */
export function refInPrompt(req: RecordedRequest, role: string, name: string): string {
  const text = req.body.messages.map((m) => m.content ?? "").join("\n");
  const ref = new RegExp(`${role} \\\\?"${name}\\\\?" \\[ref=([a-z0-9]+)\\]`).exec(text)?.[1];
  if (!ref) throw new Error(`no ref for ${role} "${name}" in the prompt`);
  return ref;
}
