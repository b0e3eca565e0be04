import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsServer } from "@crumbs/testkit";
import { JetStreamPublisher, PublishError } from "../src/nats/publisher.ts";
import { isPermanentPublishError } from "../src/outbox/prepare.ts";

/**
 * The relay's JetStream publisher against a real nats-server: every answer JetStream can give
 * (ack, duplicate, refusal, no stream, no answer at all) reaches the caller as the right outcome.
 */
describe("JetStream publisher", () => {
  let server: NatsServer;
  let nc: NatsConnection;
  let publisher: JetStreamPublisher;
  const data = (s: string) => new TextEncoder().encode(JSON.stringify({ s }));

  beforeAll(async () => {
    server = await NatsServer.start({ maxPayload: 64 * 1024 });
    nc = await connect({ servers: server.url, reconnectTimeWait: 100, maxReconnectAttempts: -1 });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: "PUB", subjects: ["pub.>"], max_msg_size: 8 * 1024 });
    publisher = new JetStreamPublisher(nc, 1_500);
  }, 30_000);

  afterAll(async () => {
    publisher?.close();
    await nc?.close();
    await server?.dispose();
  });

  it("acks pipelined publishes in the order sent, and a repeated msg id as a duplicate of the first", async () => {
    const acks = await Promise.all(
      ["a1", "a2", "a3"].map((id, i, ids) =>
        publisher.publish("pub.a", data(id), { msgId: id, ...(i > 0 ? { expectedLastMsgId: ids[i - 1] } : {}) }),
      ),
    );
    expect(acks.map((a) => a.stream)).toEqual(["PUB", "PUB", "PUB"]);
    expect(acks[1]!.seq).toBe(acks[0]!.seq + 1);
    expect(acks[2]!.seq).toBe(acks[1]!.seq + 1);
    const again = await publisher.publish("pub.a", data("a2"), { msgId: "a2" });
    expect(again).toEqual({ stream: "PUB", seq: acks[1]!.seq, duplicate: true });

    const js = nc.jetstream();
    const stored = await (await js.consumers.get("PUB")).next();
    expect(stored?.headers?.get("Nats-Msg-Id")).toBe("a1");
    expect(stored?.headers?.get("Content-Type")).toBe("application/json");
    expect(stored?.json()).toEqual({ s: "a1" });
  });

  it("refuses a publish whose expected last msg id is not the stream's last, and retrying it is allowed", async () => {
    const err = await publisher.publish("pub.b", data("b1"), { msgId: "b1", expectedLastMsgId: "not-the-last" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PublishError);
    expect(err).toMatchObject({ code: "REFUSED", errCode: 10070 });
    expect(isPermanentPublishError(err)).toBe(false);
  });

  it("refuses a message over the stream's max_msg_size as permanent", async () => {
    const big = new Uint8Array(16 * 1024).fill(0x61);
    const err = await publisher.publish("pub.c", big, { msgId: "c1" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "REFUSED", errCode: 10054 });
    expect(isPermanentPublishError(err)).toBe(true);
  });

  it("rejects at once, as permanent, a message over the server's max_payload", async () => {
    const huge = new Uint8Array(128 * 1024);
    const err = await publisher.publish("pub.c", huge, { msgId: "c2" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "MAX_PAYLOAD_EXCEEDED" });
    expect(isPermanentPublishError(err)).toBe(true);
  });

  it("answers NO_RESPONDERS for a subject no stream listens on", async () => {
    const err = await publisher.publish("nostream.x", data("x"), { msgId: "x1" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "NO_RESPONDERS" });
    expect(isPermanentPublishError(err)).toBe(false);
  });

  it("refuses, without throwing, an answer that is not a JetStream ack", async () => {
    // A plain subscriber, not a stream, answers on these subjects: garbage, then JSON without an ack.
    const impostor = nc.subscribe("impostor.>", {
      callback: (_err, m) => m.respond(new TextEncoder().encode(m.subject === "impostor.garbage" ? "not json {" : "{}")),
    });
    await nc.flush();
    const garbage = await publisher.publish("impostor.garbage", data("g"), { msgId: "g1" }).catch((e: unknown) => e);
    expect(garbage).toMatchObject({ code: "REFUSED", message: expect.stringMatching(/not JSON/) });
    const empty = await publisher.publish("impostor.empty", data("e"), { msgId: "g2" }).catch((e: unknown) => e);
    expect(empty).toMatchObject({ code: "REFUSED", message: expect.stringMatching(/no ack/) });
    expect(isPermanentPublishError(empty)).toBe(false);
    impostor.unsubscribe();
  });

  it("times out while the server is down, then publishes again once it is back", async () => {
    await server.stop();
    const started = Date.now();
    const err = await publisher.publish("pub.d", data("d1"), { msgId: "d1" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "TIMEOUT" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    await server.start();
    let ack: Awaited<ReturnType<JetStreamPublisher["publish"]>> | undefined;
    for (let i = 0; i < 50 && !ack; i++) {
      ack = await publisher.publish("pub.d", data("d1"), { msgId: "d1" }).catch(() => undefined);
    }
    expect(ack?.stream).toBe("PUB");
  }, 60_000);

  it("rejects what still waits when closed", async () => {
    const own = new JetStreamPublisher(nc, 60_000);
    await server.stop();
    const pending = own.publish("pub.e", data("e1"), { msgId: "e1" }).catch((e: unknown) => e);
    own.close();
    expect(await pending).toMatchObject({ code: "CLOSED" });
    await server.start();
  }, 30_000);
});
