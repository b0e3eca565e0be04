import { ApiResponseError, type CrumbsHttp } from "@crumbs/agent-sdk";
import { abortableSleep } from "../abortable-sleep.ts";
import { parseCommandArgs } from "../args.ts";
import { apiClient } from "../client-config.ts";
import type { Command, CliContext } from "../context.ts";
import { failureMessage } from "../errors.ts";
import { formatEventLine } from "../event-line.ts";
import { parseSelectorArg } from "../selector-arg.ts";
import { parseSeq } from "../time.ts";

const usage = `usage: crumbs tail [--selector JSON] [--after SEQ] [--json]

Live events from /v1/events/stream, one line each until Ctrl-C:
  <seq> <type> <schema_name> <id> v<version> <title>
--selector JSON  only events whose breadcrumb matches (schemas/README.md, "Selectors")
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
    const http = await apiClient(ctx);
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
        ctx.err(`tail: connection lost (${failureMessage(err as Error)}); retrying in ${backoff} ms`);
      }
      await abortableSleep(backoff, ctx.shutdown);
      backoff = Math.min(backoff * 2, 5_000);
    }
  },
};

async function streamOnce(
  http: CrumbsHttp,
  ctx: CliContext,
  opts: { selector: object | undefined; after: string | undefined; json: boolean },
  onSeq: (seq: string) => void,
  onOpen: () => void,
): Promise<void> {
  const query = { ...(opts.selector ? { selector: opts.selector } : {}), ...(opts.after === undefined ? {} : { after: opts.after }) };
  for await (const item of http.streamEvents(query, { signal: ctx.shutdown })) {
    switch (item.kind) {
      // "Connected" once the server sends its first bytes (its `: connected` comment), not at the
      // headers: only then has it fixed its starting seq, so a write made after this line is seen.
      case "open":
        onOpen();
        break;
      case "event":
        ctx.out(opts.json ? JSON.stringify(item.event) : formatEventLine(item.event));
        onSeq(item.lastEventId);
        break;
      // An id without data moves the resume point without being an event (a server may send its
      // starting seq that way, so a reconnect before any event still misses nothing).
      case "position":
        onSeq(item.lastEventId);
        break;
      case "skipped":
        ctx.err(`tail: skipped a frame that is not ${item.notJson ? "JSON" : "an event"} (id ${item.id ?? "?"})`);
        break;
    }
  }
}
