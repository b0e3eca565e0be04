// A small Server-Sent Events reader over fetch (EventSource cannot send the Authorization header);
// the pure parser is shared with the CLI.
import { SseParser, type SseFrame } from "@crumbs/schemas/sse";

export type { SseFrame };

export interface StreamOptions {
  url: string;
  token: string;
  onFrame(frame: SseFrame): void;
  onState?(state: "open" | "retrying", detail?: string): void;
  signal: AbortSignal;
}

/** Follows the stream until aborted, reconnecting with Last-Event-ID after any failure. */
export async function followSse(opts: StreamOptions): Promise<void> {
  let lastId: string | undefined;
  let failures = 0;
  while (!opts.signal.aborted) {
    try {
      const res = await fetch(opts.url, {
        headers: { authorization: `Bearer ${opts.token}`, accept: "text/event-stream", ...(lastId ? { "last-event-id": lastId } : {}) },
        signal: opts.signal,
      });
      if (!res.ok || !res.body) throw new Error(`the event stream answered ${res.status}`);
      failures = 0;
      opts.onState?.("open");
      const parser = new SseParser();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const f of parser.push(value)) {
          if (f.id) lastId = f.id;
          opts.onFrame(f);
        }
      }
    } catch (e) {
      if (opts.signal.aborted) return;
      opts.onState?.("retrying", e instanceof Error ? e.message : String(e));
    }
    failures++;
    await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** Math.min(failures, 5))));
  }
}
