// A small Server-Sent Events reader over fetch (EventSource cannot send the Authorization header):
// `GET /v1/events/stream` through the SDK's route table and fetch client; the pure parser is shared
// with the CLI.
import { eventStream } from "@crumbs/agent-sdk/http";
import { SseParser, type SseFrame } from "@crumbs/schemas/sse";
import { httpClient } from "../shared/api-client.ts";

export type { SseFrame };

export interface StreamOptions {
  apiUrl: string;
  token: string;
  /** The events to follow: a selector object, sent as JSON. */
  selector: unknown;
  onFrame(frame: SseFrame): void;
  onState?(state: "open" | "retrying", detail?: string): void;
  signal: AbortSignal;
}

/**
 * Follows the stream until aborted, reconnecting with Last-Event-ID after any failure. Resolves once
 * the stream has said where it starts (its first id: the server's `connected` frame), or its first
 * attempt failed, or it was aborted, and goes on in the background. A list read after that misses
 * nothing the stream does not bring: whatever committed before the stream's start is in the list
 * (read before it, the list missed a write committed between the two).
 */
export function followSse(opts: StreamOptions): Promise<void> {
  return new Promise<void>((started) => void follow(opts, started).finally(started));
}

async function follow(opts: StreamOptions, started: () => void): Promise<void> {
  const http = httpClient({ apiUrl: opts.apiUrl, token: opts.token });
  let lastId: string | undefined;
  let failures = 0;
  while (!opts.signal.aborted) {
    try {
      const res = await http.send(eventStream({ selector: opts.selector, after: lastId }), { signal: opts.signal, stream: true });
      if (!res.body) throw new Error(`the event stream answered ${res.status} without a body`);
      failures = 0;
      opts.onState?.("open");
      const parser = new SseParser();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const f of parser.push(value)) opts.onFrame(f);
        // Every id moves the resume point, the id-only `connected` frame's too: a stream that breaks
        // before its first event resumes from where it started, not from "now".
        if (parser.lastEventId !== undefined) {
          lastId = parser.lastEventId;
          started();
        }
      }
    } catch (e) {
      if (opts.signal.aborted) return;
      opts.onState?.("retrying", e instanceof Error ? e.message : String(e));
      started();
    }
    failures++;
    await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** Math.min(failures, 5))));
  }
}
