// A pure, dependency-free Server-Sent Events parser: the CLI's `tail` and the extension's side
// panel read the API's event stream with it (EventSource cannot send the Authorization header).
// Importable alone as `@crumbs/schemas/sse`, so it pulls nothing else into a browser bundle.

export interface SseFrame {
  /** The `id` field of this frame, when it had one. */
  id?: string;
  /** The `event` field, `message` when the frame had none. */
  event: string;
  /** The `data` lines joined by "\n". */
  data: string;
}

/**
 * Incremental parser following the WHATWG rules that matter here: chunks may split a line or a
 * frame anywhere (a "\r\n" included), comments (`: ping`) are dropped, multi-line data is joined
 * by "\n", and a block without data dispatches nothing. An `id` field always moves
 * `lastEventId`, also in a block without data: a server may announce its starting point that way,
 * and a client that resumes from `lastEventId` then misses nothing.
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;
  /** The last `id` field seen in any block; undefined until the first one. */
  lastEventId: string | undefined;

  push(chunk: string): SseFrame[] {
    this.buffer += chunk;
    const frames: SseFrame[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // A lone "\r" at the end may be the first half of "\r\n": wait for more.
      if (!m || (m[0] === "\r" && m.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const frame = this.line(line);
      if (frame) frames.push(frame);
    }
    return frames;
  }

  private line(line: string): SseFrame | undefined {
    if (line === "") {
      const frame: SseFrame | undefined =
        this.data.length === 0
          ? undefined
          : { ...(this.id !== undefined ? { id: this.id } : {}), event: this.event ?? "message", data: this.data.join("\n") };
      this.data = [];
      this.id = undefined;
      this.event = undefined;
      return frame;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id") {
      this.id = value;
      this.lastEventId = value;
    }
    return undefined;
  }
}
