import { describe, expect, it } from "vitest";
import { SseParser } from "./sse-parser.ts";

describe("SseParser", () => {
  it("reads id, event and data of a frame and drops ping comments", () => {
    const p = new SseParser();
    expect(p.push(': ping\n\nid: 7\nevent: breadcrumb.updated\ndata: {"seq":7}\n\n')).toEqual([
      { id: "7", event: "breadcrumb.updated", data: '{"seq":7}' },
    ]);
  });

  it("survives chunks split anywhere, including inside CRLF", () => {
    const text = 'id: 1\r\nevent: a\r\ndata: {"x":\r\ndata: 1}\r\n\r\nid: 2\r\ndata: y\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const p = new SseParser();
      const frames = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut))];
      expect(frames).toEqual([
        { id: "1", event: "a", data: '{"x":\n1}' },
        { id: "2", data: "y" },
      ]);
    }
  });

  it("keeps a frame open until its blank line arrives", () => {
    const p = new SseParser();
    expect(p.push("data: a\n")).toEqual([]);
    expect(p.push("\n")).toEqual([{ data: "a" }]);
  });

  it("reports a frame that carries only an id (a resume point, not an event)", () => {
    expect(new SseParser().push("id: 41\n\n")).toEqual([{ id: "41", data: "" }]);
  });
});
