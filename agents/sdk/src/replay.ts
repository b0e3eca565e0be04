import type { NatsConnection } from "nats";
import type { CrumbsHttp } from "./http-client.ts";
import { NatsPermissionError } from "./nats-permission.ts";
import { openReplayPublisher, type ReplayPublishCounts } from "./replay-publish.ts";
import type { Selector } from "./selector.ts";
import type { BreadcrumbEvent } from "./known.ts";

export interface ReplayOptions {
  /** Start after this event seq (exclusive). */
  after?: number;
  since?: string | Date;
  until?: string | Date;
  pageSize?: number;
  /** Aborting rejects the iteration with the signal's reason. */
  signal?: AbortSignal;
}

/** History as events, in seq order, from `/v1/events`, page by page. */
export async function* replayEvents(
  http: CrumbsHttp,
  selector: Selector | undefined,
  opts: ReplayOptions = {},
): AsyncGenerator<BreadcrumbEvent> {
  let after = opts.after;
  let since = after === undefined ? opts.since : undefined;
  for (;;) {
    const page = await http.events({
      after,
      since,
      until: opts.until,
      selector,
      limit: opts.pageSize ?? 500,
    }, { signal: opts.signal });
    yield* page.items;
    const next = page.next_after ?? page.items.at(-1)?.seq ?? after;
    // With a selector a page can be empty yet not the last (the API scans a bounded number of rows
    // per request), so `has_more` decides; without it, an empty page ends the replay. Either way a
    // cursor that does not move ends it: never loop forever on one page.
    const more = page.has_more ?? page.items.length > 0;
    if (!more || next === undefined || next === null || next === after) return;
    after = next;
    since = undefined;
  }
}

/** What `publishReplay` did: events read from the history, and where they went. */
export interface ReplayPublishResult extends ReplayPublishCounts {
  events: number;
}

/**
 * An owner's history, as `replayEvents` reads it, published in seq order on
 * `<prefix>.<owner>.<type>.<schema_name>` (openReplayPublisher): what `crumbs replay --publish` does.
 * With an owner's credentials use a prefix other than `crumbs`; `replay` lands in the owner's
 * `REPLAY` stream, where a second replay within its duplicate window is stored once. A refusal
 * rejects with NatsPermissionError.
 */
export async function publishReplay(
  http: CrumbsHttp,
  nc: NatsConnection,
  prefix: string,
  selector: Selector | undefined,
  opts: ReplayOptions = {},
): Promise<ReplayPublishResult> {
  const publisher = await openReplayPublisher(nc, prefix);
  let events = 0;
  try {
    for await (const event of replayEvents(http, selector, opts)) {
      await publisher.publish(event);
      events++;
    }
  } catch (err) {
    // A refusal seen on the connection explains a failed publish better than the failure itself.
    await publisher.done().catch((refusal: unknown) => {
      if (refusal instanceof NatsPermissionError) throw refusal;
    });
    throw err;
  }
  return { events, ...(await publisher.done()) };
}
