import { describe, expect, it } from "vitest";
import { CrumbsError } from "@crumbs/agent-sdk/http";
import { createApi } from "../../shared/api-client.ts";
import type { InboxEntry, ResultContext } from "../../shared/state/inbox.ts";
import type { Connection } from "../connection.ts";
import { postResult } from "./results.ts";

// Whether a result is posted, kept for a retry or dropped, decided by the SDK client's errors
// (`retryable`) as the API answers them: a fetch handler answers in the contract's error shape.

const entry = { request_id: "r1", action_id: "a1", session: "s1", title: "click" } as InboxEntry;
const result: ResultContext = { request_id: "r1", action_id: "a1", status: "ok", data: { big: true }, observation: { url: "u", title: "t", url_changed: false } };

/** A connection whose API answers each create with the next of `answers` (an error, or 201). */
function connection(answers: (CrumbsError | "created" | "down")[]): { conn: Connection; keys: (string | null)[] } {
  const keys: (string | null)[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    keys.push(req.headers.get("idempotency-key"));
    const next = answers.shift();
    if (next === "down") throw new TypeError("Failed to fetch");
    if (next instanceof CrumbsError) return Response.json(next.toJSON(), { status: next.status });
    const body = (await req.json()) as Record<string, unknown>;
    const now = new Date().toISOString();
    return Response.json({ ...body, id: "b1", owner: "o", tags: [], version: 1, created_at: now, updated_at: now }, { status: 201 });
  };
  const api = createApi({ apiUrl: "http://api.test", token: "t", fetch: fetchFn });
  return { conn: { api, key: "k", config: {} as Connection["config"] }, keys };
}

const post = (answers: Parameters<typeof connection>[0]) => postResult(connection(answers).conn, entry, result, "ext");

describe("postResult", () => {
  it("keeps the result for a retry when the API is away or answers a retryable error", async () => {
    expect(await post(["down"])).toBe("retry");
    expect(await post([new CrumbsError("unavailable", "db down", 503)])).toBe("retry");
    expect(await post([new CrumbsError("rate_limited", "slow down", 429)])).toBe("retry");
    expect(await post([new CrumbsError("unauthorized", "unknown token", 401)])).toBe("retry");
  });

  it("posts once (the key was used: it is written), and drops what the API refuses for good", async () => {
    expect(await post(["created"])).toBe("posted");
    expect(await post([new CrumbsError("idempotency_key_reused", "used", 422)])).toBe("posted");
    expect(await post([new CrumbsError("forbidden", "no write scope", 403)])).toBe("dropped");
  });

  it("writes a slim result without its data when the full one is refused as too big", async () => {
    const { conn, keys } = connection([new CrumbsError("payload_too_large", "too big", 413), "created"]);
    expect(await postResult(conn, entry, result, "ext")).toBe("posted");
    expect(keys).toEqual(["result:r1", "result:r1:slim"]);
  });
});
