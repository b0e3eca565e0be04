import { abortableSleep } from "../abortable-sleep.ts";
import { parseCommandArgs } from "../args.ts";
import { loadClientConfig } from "../client-config.ts";
import type { Command, CliContext } from "../context.ts";
import { ApiResponseError } from "@crumbs/agent-sdk";
import { formatEventLine, parseEvent } from "../event-line.ts";
import { createHttpClient, type HttpClient } from "../http-client.ts";
import { parseSelectorArg } from "../selector-arg.ts";
import { SseParser } from "@crumbs/schemas/sse";
import { parseSeq } from "../time.ts";

const usage = `usage: crumbs tail [--selector JSON] [--after SEQ] [--json]

Live events from /v1/events/stream, one line each until Ctrl-C:
  <seq> <type> <schema_name> <id> v<version> <title>
--selector JSON  only events whose breadcrumb matches (packages/schemas/README.md, "Selectors")
--after SEQ      first replay the events after SEQ, then go live
--json           print each event's JSON on one line instead
A dropped connection is resumed after the last seq seen (Last-Event-ID), so once tail has seen an
event nothing written while it was disconnected is lost.`;

export const tailCommand: Command = {
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(
      args,
      { selector: { type: "string" }, after: { type: "string" }, json: { type: "boolean" } },
      usage,
    );
    const selector = parseSelectorArg(values.selector);
    let lastSeq = values.after === undefined ? undefined : String(parseSeq(values.after));
    const http = createHttpClient(await loadClientConfig(ctx.env, ctx.cwd), ctx.fetch);
    let connectedOnce = false;
    let backoff = 250;
    while (!ctx.shutdown.aborted) {
      try {
        await streamOnce(http, ctx, { selector, after: lastSeq, json: values.json === true }, (seq) => {
          lastSeq = seq;
          backoff = 250;
        }, () => {
          ctx.err(connectedOnce ? "tail: reconnected" : `tail: connected to ${http.baseUrl}/v1/events/stream (Ctrl-C to stop)`);
          connectedOnce = true;
        });
      } catch (err) {
        if (ctx.shutdown.aborted) break;
        // A request the API refuses (bad selector, bad token) will not get better by retrying.
        if (!connectedOnce || (err instanceof ApiResponseError && err.status < 500)) throw err;
        ctx.err(`tail: connection lost (${(err as Error).message}); retrying in ${backoff} ms`);
      }
      await abortableSleep(backoff, ctx.shutdown);
      backoff = Math.min(backoff * 2, 5_000);
    }
  },
};

async function streamOnce(
  http: HttpClient,
  ctx: CliContext,
  opts: { selector: string | undefined; after: string | undefined; json: boolean },
  onSeq: (seq: string) => void,
  onOpen: () => void,
): Promise<void> {
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (opts.after !== undefined) headers["last-event-id"] = opts.after;
  const res = await http.raw("GET", "/v1/events/stream", {
    query: { selector: opts.selector, after: opts.after },
    headers,
    signal: ctx.shutdown,
  });
  if (!res.body) return;
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  let opened = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    // "Connected" once the server sends its first bytes (its `: connected` comment), not at the
    // headers: only then has it fixed its starting seq, so a write made after this line is seen.
    if (!opened) {
      opened = true;
      onOpen();
    }
    const resumeBefore = parser.lastEventId;
    const frames = parser.push(decoder.decode(value, { stream: true }));
    for (const frame of frames) {
      let raw: unknown;
      try {
        raw = JSON.parse(frame.data);
      } catch {
        ctx.err(`tail: skipped a frame that is not JSON (id ${frame.id ?? "?"})`);
        continue;
      }
      const event = parseEvent(raw);
      ctx.out(opts.json ? JSON.stringify(raw) : formatEventLine(event));
      onSeq(frame.id ?? String(event.seq));
    }
    // An id without data moves the resume point without being an event (a server may send its
    // starting seq that way, so a reconnect before any event still misses nothing).
    const resume = parser.lastEventId;
    if (resume && resume !== resumeBefore && !frames.some((f) => f.id === resume)) onSeq(resume);
  }
}
