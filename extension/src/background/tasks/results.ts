import type { Connection } from "../connection.ts";
import { ApiResponseError, CrumbsError } from "@crumbs/agent-sdk/http";
import type { InboxEntry, ResultContext } from "../../shared/state/inbox.ts";

// browser.action.result.v1 (a known schema, @crumbs/schemas/action-result), written through the API
// with an Idempotency-Key per request, so a retry after a lost answer writes it once.

export const RESULT_SCHEMA = "browser.action.result.v1";

export function resultTags(entry: InboxEntry, extensionId: string): string[] {
  const tags = ["browser:action-result", `extension:${extensionId}`, `session:${entry.session}`];
  if (entry.agent) tags.push(`agent:${entry.agent}`);
  return tags;
}

export type PostOutcome = "posted" | "retry" | "dropped";

export async function postResult(conn: Connection, entry: InboxEntry, result: ResultContext, extensionId: string): Promise<PostOutcome> {
  const body = {
    schema_name: RESULT_SCHEMA,
    title: `${entry.title}: ${result.status === "ok" ? "ok" : result.code}`.slice(0, 500),
    tags: resultTags(entry, extensionId),
    context: result as Record<string, unknown>,
  };
  try {
    await conn.api.create(body, `result:${entry.request_id}`);
    return "posted";
  } catch (e) {
    // Unreachable, no answer in time, rate limited, a 5xx: the same request may succeed later.
    if (e instanceof CrumbsError && e.retryable) return "retry";
    if (!(e instanceof ApiResponseError)) throw e;
    if (e.code === "idempotency_key_reused") return "posted";
    // Not retryable as it is, but the user fixes a refused token in the options: the result waits
    // in the inbox for the next connection rather than being lost.
    if (e.code === "unauthorized") return "retry";
    if (e.status === 413 || e.status === 422) {
      // The data did not fit or did not validate: the agent still needs to know how it went.
      const slim = { ...result, data: undefined, message: `${result.message ?? ""} (result data dropped: ${e.message})`.trim() };
      try {
        await conn.api.create({ ...body, context: slim as Record<string, unknown> }, `result:${entry.request_id}:slim`);
        return "posted";
      } catch {
        return "dropped";
      }
    }
    return "dropped";
  }
}
