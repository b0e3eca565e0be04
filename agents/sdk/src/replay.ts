import type { NatsConnection } from "nats";
import type { CrumbsHttp } from "./http-client.ts";
import { NatsPermissionError } from "./nats-permission.ts";
import { openReplayPublisher, type ReplayPublishCounts } from "./replay-publish.ts";
import { pagesAfter, readReplayedPage, type ReplayOptions } from "./replay-pages.ts";
import type { Selector } from "./selector.ts";
import type { BreadcrumbEvent } from "./known.ts";
import type { ReplayedEvent } from "./wire.ts";

export type { ReplayOptions };

/** History as events, in seq order, from `/v1/events`, page by page (the next one read while this one is handed out). */
export async function* replayEvents(
  http: CrumbsHttp,
  selector: Selector | undefined,
  opts: ReplayOptions = {},
): AsyncGenerator<BreadcrumbEvent> {
  for await (const page of pagesAfter((query, signal) => http.events(query, { signal }), selector, opts)) yield* page.items;
}

/** What `publishReplay` did: events read from the history, and where they went. */
export interface ReplayPublishResult extends ReplayPublishCounts {
  events: number;
}

export interface PublishReplayOptions extends ReplayOptions {
  /** Each page's events before they are published (`crumbs replay --publish` prints them). */
  onPage?: (events: readonly ReplayedEvent[]) => void;
}

/**
 * An owner's history, as `replayEvents` reads it, published in seq order on
 * `<prefix>.<owner>.<type>.<schema_name>` (openReplayPublisher): what `crumbs replay --publish` does.
 * Each event goes out as the bytes the API sent, and the next page is read while this one is
 * published. With an owner's credentials use a prefix other than `crumbs`; `replay` lands in the
 * owner's `REPLAY` stream, where a second replay within its duplicate window is stored once. A
 * refusal rejects with NatsPermissionError.
 */
export async function publishReplay(
  http: CrumbsHttp,
  nc: NatsConnection,
  prefix: string,
  selector: Selector | undefined,
  opts: PublishReplayOptions = {},
): Promise<ReplayPublishResult> {
  const publisher = await openReplayPublisher(nc, prefix);
  let events = 0;
  // A core publish is only buffered by the client: one page waits for the server's PONG while the
  // next is published, so a replay holds about two pages in memory, not the whole history.
  let flushed: Promise<void> = Promise.resolve();
  try {
    for await (const page of pagesAfter((query, signal) => readReplayedPage(http, query, signal), selector, opts)) {
      opts.onPage?.(page.items);
      for (const [i, event] of page.items.entries()) {
        const wait = publisher.publishJson(event, page.json[i]!);
        if (wait) await wait;
        events++;
      }
      await flushed;
      flushed = nc.flush();
      flushed.catch(() => {});
    }
    await flushed;
  } catch (err) {
    // A refusal seen on the connection explains a failed publish better than the failure itself.
    await publisher.done().catch((refusal: unknown) => {
      if (refusal instanceof NatsPermissionError) throw refusal;
    });
    throw err;
  }
  return { events, ...(await publisher.done()) };
}
