import { describe, expect, it } from "vitest";
import { SseParser } from "./sse-parser.ts";

describe("SseParser", () => {
  it("parses the API's frames, split anywhere", () => {
    const text =
      ": connected\nid: 4\n\nid: 5\nevent: breadcrumb.created\ndata: {\"seq\":5}\n\n: ping\n\nid: 6\nevent: breadcrumb.updated\ndata: a\ndata: b\n\n";
    for (let cut = 0; cut < text.length; cut++) {
      const p = new SseParser();
      const got = [...p.feed(text.slice(0, cut)), ...p.feed(text.slice(cut))];
      expect(got, `cut at ${cut}`).toEqual([
        { id: "5", event: "breadcrumb.created", data: '{"seq":5}' },
        { id: "6", event: "breadcrumb.updated", data: "a\nb" },
      ]);
      expect(p.lastEventId).toBe("6");
    }
  });

  it("handles CRLF split between chunks and keeps the id of a data-less frame", () => {
    const p = new SseParser();
    expect(p.feed(": connected\r\nid: 9\r\n\r")).toEqual([]);
    expect(p.lastEventId).toBe("9");
    expect(p.feed("\ndata: x\r")).toEqual([]);
    expect(p.feed("\n\r\n")).toEqual([{ id: "9", event: "message", data: "x" }]);
  });
});
