import { parentPort, workerData } from "node:worker_threads";
import { connect } from "nats";
import { clockMs, type StreamListenerOptions } from "./stream-listener.ts";

// The listener thread of stream-listener.ts: stamps each message as it arrives, with the time
// JetStream stored it, and reports the stamps every 20 ms, so the waiting side sees them while the
// load runs.
const opts = workerData as StreamListenerOptions;
const port = parentPort!;
const nc = await connect({ servers: opts.natsUrl });
const consumer = await nc.jetstream().consumers.get(opts.stream, { filterSubjects: opts.filter });
const messages = await consumer.consume({ max_messages: 1_000 });
let pending: [key: string, arrived: number, stored: number][] = [];
setInterval(() => {
  if (pending.length === 0) return;
  port.postMessage({ type: "seen", entries: pending });
  pending = [];
}, 20);
port.postMessage({ type: "ready" });
for await (const m of messages) {
  const at = clockMs();
  let key: string;
  if (opts.key === "msg-id") {
    const msgId = m.headers?.get("Nats-Msg-Id") ?? "";
    key = msgId.slice(0, msgId.lastIndexOf(":"));
  } else key = m.headers?.get(opts.key) ?? "";
  pending.push([key, at, m.info.timestampNanos / 1e6]);
}
