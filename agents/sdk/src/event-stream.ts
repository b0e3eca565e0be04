import { SseParser } from "@crumbs/schemas/sse";
import type { BreadcrumbEvent } from "./known.ts";
import { breadcrumbEventSchema } from "./wire.ts";

export type { EventStreamQuery } from "./http/routes.ts";

/**
 * What one connection to `GET /v1/events/stream` yields, in order. `lastEventId` is where a new
 * connection resumes to miss nothing (pass it as `after`).
 */
export type EventStreamItem =
  /** The server's first bytes: it has fixed its starting seq, so a write made from now on is seen. */
  | { kind: "open" }
  | { kind: "event"; event: BreadcrumbEvent; lastEventId: string }
  /** An `id` without an event: the resume point moved (a server may send its starting seq that way). */
  | { kind: "position"; lastEventId: string }
  /** A frame that is not an event of the contract, skipped; `notJson` when it is not even JSON. */
  | { kind: "skipped"; id: string | undefined; notJson: boolean };

/**
 * The frames of one event stream answer as items, until the server ends it or the request's
 * signal aborts (the read then rejects with the signal's reason).
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<EventStreamItem> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let opened = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (!opened) {
        opened = true;
        yield { kind: "open" };
      }
      const resumeBefore = parser.lastEventId;
      const frames = parser.push(decoder.decode(value, { stream: true }));
      for (const frame of frames) {
        let json: unknown;
        try {
          json = JSON.parse(frame.data);
        } catch {
          yield { kind: "skipped", id: frame.id, notJson: true };
          continue;
        }
        const parsed = breadcrumbEventSchema.safeParse(json);
        if (!parsed.success) {
          yield { kind: "skipped", id: frame.id, notJson: false };
          continue;
        }
        const event = parsed.data as BreadcrumbEvent;
        yield { kind: "event", event, lastEventId: frame.id ?? String(event.seq) };
      }
      const resume = parser.lastEventId;
      if (resume && resume !== resumeBefore && !frames.some((f) => f.id === resume)) yield { kind: "position", lastEventId: resume };
    }
  } finally {
    // Leaving the loop early (a break, a throw) closes the connection.
    await reader.cancel().catch(() => {});
  }
}
