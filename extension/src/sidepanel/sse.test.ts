import { describe, expect, it } from "vitest";
import { SseParser } from "./sse.ts";

describe("SseParser", () => {
  it("splits frames across chunks, keeps id and event, skips ping comments", () => {
    const p = new SseParser();
    expect(p.push(": ping\n\nid: 7\nevent: breadcrumb.created\nda")).toEqual([]);
    expect(p.push('ta: {"a":1}\n\nid: 8\r\ndata: x\r\ndata: y\r\n\r\n')).toEqual([
      { id: "7", event: "breadcrumb.created", data: '{"a":1}' },
      { id: "8", event: "message", data: "x\ny" },
    ]);
  });
});
