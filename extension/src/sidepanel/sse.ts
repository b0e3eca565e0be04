// A small Server-Sent Events reader over fetch (EventSource cannot send the Authorization header).
// parseSse is pure: feed it chunks, it returns complete frames and keeps the rest.

export interface SseFrame {
  id?: string;
  event: string;
  data: string;
}

export class SseParser {
  private buffer = "";

  push(chunk: string): SseFrame[] {
    this.buffer += chunk.replace(/\r\n?/g, "\n");
    const frames: SseFrame[] = [];
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const frame: SseFrame = { event: "message", data: "" };
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (!line || line.startsWith(":")) continue; // comments are the server's pings
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(value);
        else if (field === "event") frame.event = value;
        else if (field === "id") frame.id = value;
      }
      if (data.length) frames.push({ ...frame, data: data.join("\n") });
    }
    return frames;
  }
}

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
