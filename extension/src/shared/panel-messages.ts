import * as z from "@crumbs/schemas/zod-mini";

// Messages from the extension's pages (side panel, options) to the worker, and their answers.
// The worker is the only writer of the bus state in storage; pages read storage and ask.

export const panelRequestSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("crumbs:chat"),
    content: z.string().check(z.trim(), z.minLength(1), z.maxLength(20_000)),
    session_id: z.string().check(z.minLength(1), z.maxLength(200)),
  }),
  z.object({ kind: z.literal("crumbs:decide"), request_id: z.string().check(z.minLength(1)), approve: z.boolean(), grant: z.optional(z.boolean()) }),
  /** The side panel's Stop: ends the session's running task. */
  z.object({ kind: z.literal("crumbs:stop"), session: z.string().check(z.minLength(1), z.maxLength(200)) }),
  /** The options page revokes an "always allow" grant. */
  z.object({ kind: z.literal("crumbs:revoke-grant"), site: z.string().check(z.minLength(1)), grant_kind: z.string().check(z.minLength(1)) }),
  z.object({
    kind: z.literal("crumbs:test-connection"),
    settings: z.object({ apiUrl: z.string(), token: z.string(), natsWsUrl: z.string() }),
  }),
  z.object({ kind: z.literal("crumbs:reconnect") }),
]);
export type PanelRequest = z.infer<typeof panelRequestSchema>;

export const connectionTestSchema = z.object({
  api: z.object({ ok: z.boolean(), detail: z.string() }),
  nats: z.object({ ok: z.boolean(), detail: z.string() }),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

export const panelResponseSchema = z.object({
  ok: z.boolean(),
  error: z.optional(z.string()),
  id: z.optional(z.string()),
  test: z.optional(connectionTestSchema),
});
export type PanelResponse = z.infer<typeof panelResponseSchema>;

/** Sends a request to the worker (from a page) and validates the answer. */
export async function askWorker(req: PanelRequest): Promise<PanelResponse> {
  const raw: unknown = await chrome.runtime.sendMessage(req);
  const parsed = panelResponseSchema.safeParse(raw);
  return parsed.success ? parsed.data : { ok: false, error: "the extension worker gave no answer" };
}
