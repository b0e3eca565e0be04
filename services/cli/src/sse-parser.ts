export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Incremental Server-Sent Events parser (the WHATWG rules that matter here): chunks may split a
 * line or a frame anywhere, comments (`: ping`) are dropped, multi-line data is joined by "\n".
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;

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
      if (this.data.length === 0 && this.id === undefined && this.event === undefined) return undefined;
      const frame: SseFrame = { data: this.data.join("\n") };
      if (this.id !== undefined) frame.id = this.id;
      if (this.event !== undefined) frame.event = this.event;
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
    else if (field === "id") this.id = value;
    else if (field === "event") this.event = value;
    return undefined;
  }
}
