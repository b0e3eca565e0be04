import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsServer } from "@crumbs/testkit";
import { connectNats } from "@crumbs/agent-sdk";

// The outbound flush threshold is an option nats.js reads but does not declare
// (src/nats-connection-options.ts): an upgrade that stops reading it must fail here, not
// silently give every replay 8x the socket writes.
describe("connectNats", () => {
  let nats: NatsServer;
  beforeAll(async () => {
    nats = await NatsServer.start();
  });
  afterAll(() => nats?.dispose());

  it("writes its outbound buffer at 256 KB within a turn, not nats.js's 32 KB", async () => {
    const nc = await connectNats(nats.url, "flush-threshold");
    try {
      expect((nc as unknown as { protocol: { pendingLimit: number } }).protocol.pendingLimit).toBe(256 * 1024);
    } finally {
      await nc.close();
    }
  });
});
