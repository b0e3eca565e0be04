import { z } from "zod";
import { parseCommandArgs } from "../args.ts";
import { loadClientConfig } from "../client-config.ts";
import type { Command } from "../context.ts";
import { CliError, UsageError } from "../errors.ts";
import { formatEventLine, parseEvent, validateSubjectPrefix } from "../event-line.ts";
import { createHttpClient } from "../http-client.ts";
import { resolveNatsUrl } from "../nats-url.ts";
import { openReplayPublisher, type ReplayPublisher } from "../replay-publisher.ts";
import { parseSelectorArg } from "../selector-arg.ts";
import { parseSeq, parseTime } from "../time.ts";

const usage = `usage: crumbs replay [--selector JSON] [--since TIME | --after SEQ] [--until TIME] [--publish PREFIX] [--json]

Every past event (from /v1/events) in seq order, one line each:
  <seq> <type> <schema_name> <id> v<version> <title>
TIME is ISO (2025-01-31T12:00:00Z) or a duration back from now: 30s, 30m, 1h, 2d, 1w.
--publish PREFIX  also publish each event to NATS (NATS_URL) on <PREFIX>.<owner>.<type>.<schema_name>,
                  the payload being the event JSON. When a JetStream stream covers the subject the
                  event is stored there with Nats-Msg-Id <id>:<version>:<type> (a second replay within
                  the stream's duplicate window is deduplicated); otherwise it is a core NATS publish
                  that live subscribers receive. Use a prefix other than "crumbs" to keep replays apart
                  from live events.
--json            print each event's JSON on one line instead
A summary (count, events/s) goes to stderr.`;

const PAGE = 500;
const pageSchema = z.object({
  items: z.array(z.unknown()),
  next_after: z.coerce.number().nullish(),
  has_more: z.boolean().optional(),
});

export const replayCommand: Command = {
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(
      args,
      {
        selector: { type: "string" },
        since: { type: "string" },
        after: { type: "string" },
        until: { type: "string" },
        publish: { type: "string" },
        json: { type: "boolean" },
      },
      usage,
    );
    if (values.since !== undefined && values.after !== undefined) {
      throw new UsageError(`use --since or --after, not both`, usage);
    }
    const query = {
      selector: parseSelectorArg(values.selector),
      since: values.since === undefined ? undefined : parseTime(values.since),
      until: values.until === undefined ? undefined : parseTime(values.until),
      limit: PAGE,
    };
    let after = values.after === undefined ? undefined : parseSeq(values.after);
    const prefix = values.publish === undefined ? undefined : validateSubjectPrefix(values.publish);
    const http = createHttpClient(await loadClientConfig(ctx.env, ctx.cwd), ctx.fetch);
    let publisher: ReplayPublisher | undefined;
    if (prefix) publisher = await openReplayPublisher(await resolveNatsUrl(ctx.env, ctx.cwd), prefix);

    const started = performance.now();
    let count = 0;
    try {
      for (;;) {
        const res = await http.json("GET", "/v1/events", { query: { ...query, after } });
        const page = pageSchema.safeParse(res.body);
        if (!page.success) throw new CliError("invalid_response", `unexpected /v1/events page: ${page.error.issues[0]?.message}`);
        let lastSeq = after;
        for (const raw of page.data.items) {
          const event = parseEvent(raw);
          ctx.out(values.json ? JSON.stringify(raw) : formatEventLine(event));
          if (publisher) await publisher.publish(event, raw);
          lastSeq = event.seq;
          count++;
        }
        const next = page.data.next_after ?? lastSeq;
        // With a selector a page can be empty yet not the last (the API scans a bounded number of
        // rows per request), so `has_more` decides; without it, an empty page ends the replay.
        // Either way a cursor that does not move ends it: never loop forever on one page.
        const more = page.data.has_more ?? page.data.items.length > 0;
        if (!more || next === undefined || next === after) break;
        after = next;
      }
    } finally {
      const counts = await publisher?.close();
      const seconds = (performance.now() - started) / 1000;
      const rate = seconds > 0 ? Math.round(count / seconds) : count;
      let summary = `replayed ${count} events in ${seconds.toFixed(2)} s (${rate} events/s)`;
      if (counts) {
        summary += `; published to ${prefix}.>: ${counts.jetstream} into JetStream`;
        if (counts.duplicates) summary += ` (${counts.duplicates} already there)`;
        summary += `, ${counts.core} core`;
      }
      ctx.err(summary);
    }
  },
};
