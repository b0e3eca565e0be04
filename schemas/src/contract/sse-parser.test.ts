import { describe, expect, it } from "vitest";
import { SseParser } from "./sse-parser.ts";

describe("SseParser", () => {
  it("reads id, event and data of a frame and drops ping comments", () => {
    const p = new SseParser();
    expect(p.push(': ping\n\nid: 7\nevent: breadcrumb.updated\ndata: {"seq":7}\n\n')).toEqual([
      { id: "7", event: "breadcrumb.updated", data: '{"seq":7}' },
    ]);
  });

  it("names a frame without an event field `message` and joins its data lines", () => {
    const p = new SseParser();
    expect(p.push(": ping\n\nid: 7\nevent: breadcrumb.created\nda")).toEqual([]);
    expect(p.push('ta: {"a":1}\n\nid: 8\r\ndata: x\r\ndata: y\r\n\r\n')).toEqual([
      { id: "7", event: "breadcrumb.created", data: '{"a":1}' },
      { id: "8", event: "message", data: "x\ny" },
    ]);
  });

  it("survives chunks split anywhere, including inside CRLF", () => {
    const text = 'id: 1\r\nevent: a\r\ndata: {"x":\r\ndata: 1}\r\n\r\nid: 2\r\ndata: y\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const p = new SseParser();
      const frames = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut))];
      expect(frames).toEqual([
        { id: "1", event: "a", data: '{"x":\n1}' },
        { id: "2", event: "message", data: "y" },
      ]);
    }
  });

  it("keeps a frame open until its blank line arrives", () => {
    const p = new SseParser();
    expect(p.push("data: a\n")).toEqual([]);
    expect(p.push("\n")).toEqual([{ event: "message", data: "a" }]);
  });

  it("dispatches nothing for a block with only an id, but moves lastEventId (a resume point)", () => {
    const p = new SseParser();
    expect(p.lastEventId).toBeUndefined();
    expect(p.push("id: 41\n\n")).toEqual([]);
    expect(p.lastEventId).toBe("41");
    expect(p.push("id: 42\ndata: x\n\n")).toEqual([{ id: "42", event: "message", data: "x" }]);
    expect(p.lastEventId).toBe("42");
    // A frame without an id leaves the resume point where it was.
    expect(p.push("data: y\n\n")).toEqual([{ event: "message", data: "y" }]);
    expect(p.lastEventId).toBe("42");
  });
});
