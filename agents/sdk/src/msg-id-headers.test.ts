import { MsgHdrsImpl } from "nats";
import { describe, expect, it } from "vitest";
import { MsgIdHeaders } from "./msg-id-headers.ts";

describe("MsgIdHeaders", () => {
  it("encodes to the bytes nats.js's headers give, id after id", () => {
    const ours = new MsgIdHeaders();
    for (const id of ["0b4c5e1a-9a4e-4f7e-8a51-5a3b1c2d3e4f:1:created", " padded:2:updated ", "ünïcode:3:deleted"]) {
      const theirs = new MsgHdrsImpl();
      theirs.set("Nats-Msg-Id", id);
      ours.setMsgId(id);
      expect(Buffer.from(ours.encode()).toString("latin1")).toBe(Buffer.from(theirs.encode()).toString("latin1"));
      expect(ours.get("Nats-Msg-Id")).toBe(theirs.get("Nats-Msg-Id"));
    }
  });

  it("refuses a value with CR or LF as nats.js does", () => {
    const ours = new MsgIdHeaders();
    expect(() => ours.setMsgId("a\r\nInjected: x")).toThrow(/invalid header value/);
    expect(() => new MsgHdrsImpl().set("Nats-Msg-Id", "a\r\nInjected: x")).toThrow(/invalid header value/);
  });
});
