import * as z from "@crumbs/schemas/zod-mini";
import { askWorker } from "../shared/panel-messages.ts";
import { httpClient, listWith, type Breadcrumb } from "../shared/api-client.ts";
import type { Config } from "../shared/state/config.ts";
import { el } from "./dom.ts";
import { followSse } from "./sse.ts";

// The chat with agents: the user's chat.message.v1 go out through the worker (which tags them with
// the session and this extension); the session's messages and agent.response.v1 come back from the
// API (history, then the live event stream) and are shown as text.

const SESSION_KEY = "crumbs.chatSession";
const CHAT_SCHEMAS = ["chat.message.v1", "agent.response.v1"];

const eventSchema = z.object({
  seq: z.number(),
  type: z.string(),
  breadcrumb: z.looseObject({ id: z.string(), schema_name: z.string(), context: z.record(z.string(), z.unknown()), created_at: z.string() }),
});

export async function chatSession(renew = false): Promise<string> {
  const current = (await chrome.storage.local.get(SESSION_KEY))[SESSION_KEY];
  if (typeof current === "string" && !renew) return current;
  const id = crypto.randomUUID();
  await chrome.storage.local.set({ [SESSION_KEY]: id });
  return id;
}

type ChatItem = Pick<Breadcrumb, "id" | "schema_name" | "context" | "created_at">;

export class ChatView {
  private readonly seen = new Set<string>();
  private abort: AbortController | undefined;

  constructor(
    private readonly log: HTMLElement,
    private readonly state: HTMLElement,
  ) {}

  async start(config: Config, session: string): Promise<void> {
    this.abort?.abort();
    this.abort = new AbortController();
    this.seen.clear();
    this.log.replaceChildren();
    const selector = { schema_name: CHAT_SCHEMAS, all_tags: [`session:${session}`] };
    // Live first, then history once the stream has started: whatever is written in between arrives by one or the other.
    const { signal } = this.abort;
    await followSse({
      apiUrl: config.apiUrl,
      token: config.token,
      selector,
      signal,
      onState: (s, detail) => (this.state.textContent = s === "open" ? "" : `reconnecting: ${detail ?? ""}`),
      onFrame: (f) => {
        const parsed = eventSchema.safeParse(JSON.parse(f.data));
        if (parsed.success && parsed.data.type === "breadcrumb.created") this.add(parsed.data.breadcrumb);
      },
    });
    if (signal.aborted) return;
    const history = await listWith(httpClient(config), { selector, limit: 100 }).catch(() => [] as Breadcrumb[]);
    for (const b of history.sort((a, b) => a.created_at.localeCompare(b.created_at))) this.add(b);
  }

  async send(content: string, session: string): Promise<string | undefined> {
    const res = await askWorker({ kind: "crumbs:chat", content, session_id: session });
    return res.ok ? undefined : (res.error ?? "could not send");
  }

  private add(b: ChatItem): void {
    if (this.seen.has(b.id)) return;
    this.seen.add(b.id);
    const fromAgent = b.schema_name === "agent.response.v1";
    const who = fromAgent ? String(b.context.agent_id ?? "agent") : "you";
    const item = el(
      "li",
      { class: fromAgent ? "msg agent" : "msg user", data: { id: b.id, at: b.created_at } },
      el("div", { class: "who" }, who),
      el("div", { class: "text" }, String(b.context.content ?? "")),
    );
    // Keep time order when history arrives after live messages.
    const after = [...this.log.children].find((c) => ((c as HTMLElement).dataset.at ?? "") > b.created_at);
    this.log.insertBefore(item, after ?? null);
    this.log.scrollTop = this.log.scrollHeight;
  }

  stop(): void {
    this.abort?.abort();
  }
}
