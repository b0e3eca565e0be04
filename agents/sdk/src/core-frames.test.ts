import { MsgHdrsImpl, type NatsConnection } from "nats";
import { describe, expect, it } from "vitest";
import { CoreFrames } from "./core-frames.ts";

/** A connection that keeps what is handed to it, and what went through nats.js's publish. */
function fakeConnection(open = true) {
  const sent: Buffer[] = [];
  const published: string[] = [];
  const nc = {
    isClosed: () => !open,
    isDraining: () => false,
    publish: (subject: string) => published.push(subject),
    protocol: { sendCommand: (frame: Uint8Array) => sent.push(Buffer.from(frame)) },
  };
  return { nc: nc as unknown as NatsConnection, sent, published };
}

/** The bytes nats.js's publish queues for a message with one Nats-Msg-Id header. */
function natsFrame(subject: string, id: string, data: Uint8Array): Buffer {
  const h = new MsgHdrsImpl();
  h.set("Nats-Msg-Id", id);
  const hdr = h.encode();
  return Buffer.concat([Buffer.from(`HPUB ${subject} ${hdr.length} ${hdr.length + data.length}\r\n`), hdr, data, Buffer.from("\r\n")]);
}

describe("CoreFrames", () => {
  it("writes the bytes nats.js's publish writes, in order, handed over once", () => {
    const { nc, sent } = fakeConnection();
    const frames = new CoreFrames(nc);
    const messages = [
      ["replay.default.created.chat.message.v1", "0b4c5e1a-9a4e-4f7e-8a51-5a3b1c2d3e4f:1:created", '{"seq":1}'],
      ["replay.default.updated.chat.message.v1", " padded:2:updated ", '{"title":"ünïcode"}'],
      ["replay.default.created.chat.message.v1", "ünïcode:3:deleted", ""],
    ] as const;
    for (const [subject, id, json] of messages) frames.publish(subject, id, Buffer.from(json));
    expect(sent).toEqual([]);
    frames.handOver();
    frames.handOver();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.toString("latin1")).toBe(Buffer.concat(messages.map(([s, id, json]) => natsFrame(s, id, Buffer.from(json)))).toString("latin1"));
  });

  it("hands a full buffer over before the frame that does not fit, and takes a payload larger than its buffer", () => {
    const { nc, sent } = fakeConnection();
    const frames = new CoreFrames(nc);
    const big = Buffer.alloc(200 * 1024, 0x61);
    frames.publish("s", "a:1:created", big);
    frames.publish("s", "b:1:created", big);
    const huge = Buffer.alloc(600 * 1024, 0x62);
    frames.publish("s", "c:1:created", huge);
    frames.handOver();
    expect(sent.map((b) => b.toString("latin1"))).toEqual(
      [natsFrame("s", "a:1:created", big), natsFrame("s", "b:1:created", big), natsFrame("s", "c:1:created", huge)].map((b) => b.toString("latin1")),
    );
  });

  it("leaves a closed connection's publish and an id with CR or LF to nats.js, which refuses them", () => {
    const closed = fakeConnection(false);
    new CoreFrames(closed.nc).publish("s", "a:1:created", Buffer.from("{}"));
    expect(closed.published).toEqual(["s"]);
    expect(() => new CoreFrames(fakeConnection().nc).publish("s", "a\r\nInjected: x", Buffer.from("{}"))).toThrow(/invalid header value/);
  });
});
