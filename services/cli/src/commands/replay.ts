import { NatsPermissionError, publishReplay, replayEvents, type ReplayPublishCounts, type Selector } from "@crumbs/agent-sdk";
import { parseCommandArgs } from "../args.ts";
import { apiClient } from "../client-config.ts";
import type { Command } from "../context.ts";
import { CliError, UsageError } from "../errors.ts";
import { formatEventLine, validateSubjectPrefix, type EventFields } from "../event-line.ts";
import { resolveNatsUrl } from "../nats-url.ts";
import { openReplayNats, publishRefused } from "../nats-failure.ts";
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
                  from live events. Credentials: NATS_CREDS when set, else the API mints them for
                  the token's owner (who may publish on <PREFIX>.<owner>.>); a refusal says so.
--json            print each event's JSON on one line instead
A summary (count, events/s) goes to stderr.`;

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
    // The API checks the selector (422 invalid_selector) and the times.
    const selector = parseSelectorArg(values.selector) as Selector | undefined;
    const range = {
      ...(values.since === undefined ? {} : { since: parseTime(values.since) }),
      ...(values.until === undefined ? {} : { until: parseTime(values.until) }),
      ...(values.after === undefined ? {} : { after: parseSeq(values.after) }),
    };
    const prefix = values.publish === undefined ? undefined : validateSubjectPrefix(values.publish);
    const http = await apiClient(ctx);
    const line = (event: EventFields) => (values.json ? JSON.stringify(event) : formatEventLine(event));
    let count = 0;
    let started = performance.now();
    const summary = (counts?: ReplayPublishCounts) => {
      const seconds = (performance.now() - started) / 1000;
      const rate = seconds > 0 ? Math.round(count / seconds) : count;
      let text = `replayed ${count} events in ${seconds.toFixed(2)} s (${rate} events/s)`;
      if (counts) {
        text += `; published to ${prefix}.>: ${counts.jetstream} into JetStream`;
        if (counts.duplicates) text += ` (${counts.duplicates} already there)`;
        text += `, ${counts.core} core`;
      }
      ctx.err(text);
    };
    if (!prefix) {
      try {
        for await (const event of replayEvents(http, selector, range)) {
          ctx.out(line(event));
          count++;
        }
      } finally {
        summary();
      }
      return;
    }

    // NATS is opened (a credentials request, a connect) while the history's first answer is asked for.
    const opened = resolveNatsUrl(ctx.env, ctx.cwd)
      .catch(() => undefined)
      .then((natsUrl) => openReplayNats(http, { natsUrl, natsCreds: ctx.env.NATS_CREDS }));
    opened.catch(() => {});
    let counts: ReplayPublishCounts | undefined;
    started = performance.now();
    // Lines go out a thousand at a time: the streamed events come in batches of a network chunk
    // (about 45 events), and a write per batch was 2,200 system calls per 100,000 events.
    let pending: string[] = [];
    const flushLines = () => {
      if (pending.length) ctx.out(pending.join("\n"));
      pending = [];
    };
    try {
      const onPage = (events: readonly EventFields[]) => {
        for (const e of events) pending.push(line(e));
        if (pending.length >= 1_000) flushLines();
        count += events.length;
      };
      counts = await publishReplay(http, opened.then((o) => o.nc), prefix, selector, { ...range, onPage });
      flushLines();
    } catch (err) {
      flushLines();
      // The SDK's publisher names a refusal (NatsPermissionError); the CLI says it with its own fix.
      if (err instanceof NatsPermissionError) throw publishRefused(err.subject, prefix);
      if (err instanceof Error && err.message.startsWith("JetStream publish to ")) throw new CliError("publish_failed", err.message);
      throw err;
    } finally {
      // Without a connection nothing was replayed: the failure to open it is the whole answer.
      const nats = await opened.catch(() => undefined);
      if (nats) {
        nats.session?.stop();
        await nats.nc.drain().catch(() => {});
        summary(counts);
      }
    }
  },
};
