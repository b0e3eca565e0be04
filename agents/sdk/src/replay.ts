import type { NatsConnection } from "nats";
import type { CrumbsHttp } from "./http-client.ts";
import { NatsPermissionError } from "./nats-permission.ts";
import { openReplayPublisher, type ReplayPublishCounts } from "./replay-publish.ts";
import { streamedReplay, type ReplayOptions } from "./replay-lines.ts";
import { ApiResponseError } from "./errors.ts";
import { breadcrumbEventSchema } from "./wire.ts";
import type { Selector } from "./selector.ts";
import type { BreadcrumbEvent } from "./known.ts";
import type { ReplayedEvent } from "./wire.ts";

export type { ReplayOptions };

const decoder = new TextDecoder();

/**
 * History as events, in seq order, from `/v1/events` streamed (replay-lines.ts: the API writes
 * them as Postgres reads them), each checked against the contract's event schema.
 */
export async function* replayEvents(
  http: CrumbsHttp,
  selector: Selector | undefined,
  opts: ReplayOptions = {},
): AsyncGenerator<BreadcrumbEvent> {
  for await (const batch of streamedReplay(http, selector, opts)) {
    for (const { json } of batch) {
      const parsed = breadcrumbEventSchema.safeParse(JSON.parse(decoder.decode(json)));
      if (!parsed.success) throw new ApiResponseError("invalid_response", `GET /v1/events: unexpected event: ${parsed.error.message}`, 200);
      yield parsed.data as BreadcrumbEvent;
    }
  }
}

/** Core publishes between two flushes: a page's worth. */
const FLUSH_EVENTS = 1_000;

/** What `publishReplay` did: events read from the history, and where they went. */
export interface ReplayPublishResult extends ReplayPublishCounts {
  events: number;
}

export interface PublishReplayOptions extends ReplayOptions {
  /** Each batch of events before it is published (`crumbs replay --publish` prints them). */
  onPage?: (events: readonly ReplayedEvent[]) => void;
}

/**
 * An owner's history, as `replayEvents` reads it, published in seq order on
 * `<prefix>.<owner>.<type>.<schema_name>` (openReplayPublisher): what `crumbs replay --publish` does.
 * Each event goes out as the bytes the API streamed (replay-lines.ts), never parsed past its head
 * nor serialised again, while the API goes on writing the next ones; the history is asked for
 * while the connection opens and the publisher looks up its stream. With an owner's credentials use a prefix other than
 * `crumbs`; `replay` lands in the owner's `REPLAY` stream, where a second replay within its duplicate window is stored once. A
 * refusal rejects with NatsPermissionError.
 */
export async function publishReplay(
  http: CrumbsHttp,
  connection: NatsConnection | PromiseLike<NatsConnection>,
  prefix: string,
  selector: Selector | undefined,
  opts: PublishReplayOptions = {},
): Promise<ReplayPublishResult> {
  const batches = streamedReplay(http, selector, opts);
  // The first answer's request and first step overlap the connection still being opened (a
  // connection can be passed while it connects) and the JetStream lookups (round trips each).
  let next = batches.next();
  next.catch(() => {});
  let publisher: Awaited<ReturnType<typeof openReplayPublisher>>;
  try {
    publisher = await openReplayPublisher(await connection, prefix);
  } catch (err) {
    void batches.return(undefined).catch(() => {});
    throw err;
  }
  let events = 0;
  // A core publish is only buffered by the client: every FLUSH_EVENTS events wait for the server's
  // PONG to the flush before while the next are published, so a replay holds a bounded number of
  // events in memory, not the whole history.
  let flushed: Promise<void> = Promise.resolve();
  let unflushed = 0;
  try {
    for (let r = await next; !r.done; r = await next) {
      next = batches.next();
      next.catch(() => {});
      const batch = r.value;
      if (opts.onPage) opts.onPage(batch.map((e) => e.event));
      for (const { event, json } of batch) {
        const wait = publisher.publishJson(event, json);
        if (wait) await wait;
      }
      events += batch.length;
      unflushed += batch.length;
      if (unflushed >= FLUSH_EVENTS) {
        unflushed = 0;
        await flushed;
        flushed = publisher.flush();
        flushed.catch(() => {});
      }
    }
    await flushed;
  } catch (err) {
    void batches.return(undefined).catch(() => {});
    // A refusal seen on the connection explains a failed publish better than the failure itself.
    await publisher.done().catch((refusal: unknown) => {
      if (refusal instanceof NatsPermissionError) throw refusal;
    });
    throw err;
  }
  return { events, ...(await publisher.done()) };
}
