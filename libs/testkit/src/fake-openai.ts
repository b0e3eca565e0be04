import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake model received, as the runner sent it. */
export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content?: string | null; tool_calls?: unknown[]; tool_call_id?: string }>;
    tools?: Array<{ type: string; function: { name: string; description?: string; parameters: unknown } }>;
    [key: string]: unknown;
  };
  /**
   * Set once the exchange is over: "answered" when the whole reply was sent, "abandoned" when the
   * client hung up first (a timeout, an abort). A test waits for this instead of sleeping through
   * a model call in flight.
   */
  ended?: "answered" | "abandoned";
}

export interface ScriptedToolCall {
  name: string;
  arguments: unknown;
  id?: string;
}

/** What the fake answers to one request. */
export type ScriptedReply =
  | { kind: "text"; content: string }
  | { kind: "tools"; calls: ScriptedToolCall[]; content?: string }
  | { kind: "status"; status: number; body?: string }
  | { kind: "garbage"; body?: string }
  | { kind: "slow"; delayMs: number; then?: ScriptedReply }
  | { kind: "hang" };

export type Script = (req: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

/**
 * A real OpenAI-compatible HTTP server on a free port. It records every
 * request and answers `POST /chat/completions` from a script, so tests can
 * check exactly what the runner sent and drive tool calls, errors and
 * slowness without a real model.
 */
export class FakeOpenAI {
  readonly requests: RecordedRequest[] = [];
  private script: Script = () => ({ kind: "text", content: "ok" });
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /**
   * `host`: the address to listen on (127.0.0.1); "0.0.0.0" lets containers reach it as
   * host.docker.internal (host-gateway), on `port`.
   */
  static async start(opts: { host?: string } = {}): Promise<FakeOpenAI> {
    const host = opts.host ?? "127.0.0.1";
    const holder: { self?: FakeOpenAI } = {};
    const server = createServer((req, res) => {
      void holder.self?.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    holder.self = new FakeOpenAI(server, `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}/v1`);
    return holder.self;
  }

  /** Replace the script; earlier recorded requests are kept. */
  setScript(script: Script | ScriptedReply): void {
    this.script = typeof script === "function" ? script : () => script;
  }

  /** Answer the queued replies in order, then the fallback for every later request. */
  queue(replies: ScriptedReply[], fallback: ScriptedReply = { kind: "text", content: "ok" }): void {
    const list = [...replies];
    this.script = () => list.shift() ?? fallback;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    let body: RecordedRequest["body"];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res.writeHead(400).end('{"error":{"message":"bad json"}}');
      return;
    }
    const recorded: RecordedRequest = { path, authorization: req.headers.authorization, body };
    res.once("close", () => (recorded.ended = res.writableFinished ? "answered" : "abandoned"));
    this.requests.push(recorded);
    const reply = await this.script(recorded, this.requests.length - 1);
    await this.answer(res, body.model, reply);
  }

  private async answer(res: ServerResponse, model: string, reply: ScriptedReply): Promise<void> {
    switch (reply.kind) {
      case "slow":
        await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        return this.answer(res, model, reply.then ?? { kind: "text", content: "slow ok" });
      case "hang":
        this.hanging.add(res);
        res.on("close", () => this.hanging.delete(res));
        return;
      case "status":
        res.writeHead(reply.status, { "content-type": "application/json" });
        res.end(reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}` } }));
        return;
      case "garbage":
        res.writeHead(200, { "content-type": "application/json" }).end(reply.body ?? "<html>not json");
        return;
      case "text":
      case "tools": {
        const toolCalls =
          reply.kind === "tools"
            ? reply.calls.map((c, i) => ({
                id: c.id ?? `call_${this.requests.length}_${i}`,
                type: "function",
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              }))
            : undefined;
        const message = {
          role: "assistant",
          content: reply.content ?? null,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${this.requests.length}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [{ index: 0, message, finish_reason: toolCalls ? "tool_calls" : "stop" }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
        return;
      }
    }
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
