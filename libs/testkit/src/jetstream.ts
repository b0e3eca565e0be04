import { connect, type ConnectionOptions, type ConsumerInfo } from "nats";
import { waitFor } from "./wait-for.ts";

/**
 * Waits until a durable consumer has nothing left to deliver and nothing waiting for an ack, and
 * returns its state. A "nothing else happened" check reads this instead of only sleeping: once the
 * consumer is drained, every message it will ever deliver was delivered and acked, so what the
 * handler did so far is all it will do. `delivered.consumer_seq` counts deliveries, redeliveries
 * included. With `acked: false` it waits only until everything was delivered: an ack lost in a
 * reconnect stays pending until the consumer's ack wait runs out.
 */
export async function waitForConsumerDrained(
  server: string | ConnectionOptions,
  stream: string,
  durable: string,
  { timeout = 15_000, acked = true } = {},
): Promise<ConsumerInfo> {
  const nc = await connect(typeof server === "string" ? { servers: server } : server);
  try {
    const jsm = await nc.jetstreamManager();
    return await waitFor(
      async () => {
        const info = await jsm.consumers.info(stream, durable);
        return info.num_pending === 0 && (!acked || info.num_ack_pending === 0) ? info : undefined;
      },
      { timeout, interval: 50, message: `consumer ${durable} drained` },
    );
  } finally {
    await nc.close();
  }
}
