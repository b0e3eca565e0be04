import { parentPort, workerData } from "node:worker_threads";
import { apiNatsAuthenticator } from "../nats-auth/index.ts";
import { connectNats } from "../nats/connect.ts";
import type { FromRelayThread, ToRelayThread } from "./relay-protocol.ts";
import { kickLatch, relayWorkerDataSchema } from "./relay-protocol.ts";
import { OutboxRelay } from "./relay.ts";
import { threadLogger } from "./thread-logger.ts";
import { PgRelayStore } from "./relay-store-pg.ts";

// The relay thread (relay-thread.ts starts it): its own Postgres and NATS connections,
// so batches and JetStream acks never wait behind HTTP work on the API's event loop.
const port = parentPort!;
const post = (m: FromRelayThread) => port.postMessage(m);
const log = threadLogger(post);

const data = relayWorkerDataSchema.parse(workerData);
const kickFlag = new Int32Array(data.kickFlag);
const commits = kickLatch(kickFlag);
const store = new PgRelayStore({ databaseUrl: data.databaseUrl });

try {
  const nats = await connectNats({
    url: data.natsUrl,
    name: "crumbs-api-relay",
    log,
    authenticator: apiNatsAuthenticator(data.auth),
    ...(data.streamLimits ? { streamLimits: data.streamLimits } : {}),
    ...(data.streamReplicas ? { streamReplicas: data.streamReplicas } : {}),
  });
  const relay = new OutboxRelay({
    store,
    nats,
    pollMs: data.pollMs,
    ownerFeed: data.auth?.natsAccountSeed !== undefined,
    onPublished: (delaysMs, fromMemory) => post({ type: "published", delaysMs, fromMemory }),
    onParked: (n) => post({ type: "parked", n }),
    log,
    commits,
  });
  port.on("message", (m: ToRelayThread) => {
    if (m.type === "kick") relay.kick();
    else if (m.type === "events") for (const event of m.events) relay.offer(event);
    else if (m.type === "stop") {
      void (async () => {
        // Finishes the batch in flight, then closes the relay's Postgres connection.
        await relay.stop().catch((err: unknown) => log.warn({ err }, "relay thread: postgres close failed"));
        await nats.close().catch((err: unknown) => log.warn({ err }, "relay thread: nats close failed"));
        post({ type: "stopped" });
        // Ends the thread even if a library left a handle open; exit code 0 tells the main thread all closed.
        process.exit(0);
      })();
    }
  });
  await relay.start();
  post({ type: "ready" });
} catch (err) {
  await store.close().catch(() => {});
  post({ type: "failed", message: String(err) });
  port.close();
}
