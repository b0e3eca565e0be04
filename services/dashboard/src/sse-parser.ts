/** One server-sent event as the API writes it. */
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/**
 * A streaming parser for text/event-stream (the WHATWG rules the API's frames need: `id`,
 * `event`, multi-line `data`, comments, CRLF). EventSource cannot send an Authorization
 * header, so the dashboard reads the stream with fetch and feeds the chunks here.
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | undefined;
  /** The last `id:` seen, also from frames without data (the API's `: connected` frame). */
  lastEventId: string | undefined;

  feed(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const sepLen = this.buffer.startsWith("\r\n", nl) ? 2 : 1;
      // A lone \r at the end of a chunk may be the first half of \r\n: wait for more.
      if (this.buffer[nl] === "\r" && sepLen === 1 && nl === this.buffer.length - 1) break;
      this.buffer = this.buffer.slice(nl + sepLen);
      const msg = this.line(line);
      if (msg) out.push(msg);
    }
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === "") {
      const msg = this.data.length ? { id: this.id, event: this.event || "message", data: this.data.join("\n") } : undefined;
      this.data = [];
      this.event = "";
      return msg;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = this.lastEventId = value;
    return undefined;
  }
}
