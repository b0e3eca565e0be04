// A custom agent with nothing but a NATS client and fetch: the subjects and
// payloads are the contract, so the same works from any language.
// Run: CRUMBS_URL=... CRUMBS_TOKEN=... NATS_URL=... npx tsx agents/examples/raw-nats-agent.ts
import { AckPolicy, DeliverPolicy, connect } from "nats";

const api = process.env.CRUMBS_URL ?? "http://127.0.0.1:8081";
const token = process.env.CRUMBS_TOKEN ?? "";
const nc = await connect({
  servers: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
  maxReconnectAttempts: -1,
});

// One durable consumer: every copy of this process shares it, and it resumes after a restart.
const jsm = await nc.jetstreamManager();
await jsm.consumers
  .add("CRUMBS", {
    durable_name: "raw-upper",
    filter_subject: "crumbs.*.created.chat.message.v1",
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.New,
    max_deliver: 5,
  })
  .catch(() => undefined); // already there
const consumer = await nc.jetstream().consumers.get("CRUMBS", "raw-upper");
const messages = await consumer.consume({ max_messages: 8 });
console.log("raw-upper listening");

interface Event {
  id: string;
  version: number;
  tags: string[];
  breadcrumb: { context: { content?: string; session_id?: string } };
}

for await (const msg of messages) {
  const event = msg.json<Event>();
  // The subject narrowed the schema; the tag the selector would check is filtered here.
  if (!event.tags.includes("user:message")) {
    msg.ack();
    continue;
  }
  const session = event.breadcrumb.context.session_id ?? "default";
  const content = (event.breadcrumb.context.content ?? "").toUpperCase();
  const res = await fetch(`${api}/v1/breadcrumbs`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      // Written once even if this message is delivered again.
      "idempotency-key": `raw-upper:${event.id}:${event.version}`,
    },
    body: JSON.stringify({
      schema_name: "agent.response.v1",
      title: `raw-upper: ${content.slice(0, 60)}`,
      tags: ["agent:response", `session:${session}`, "agent:raw-upper"],
      context: {
        agent_id: "raw-upper",
        content,
        session_id: session,
        in_reply_to: { id: event.id, version: event.version },
      },
    }),
  }).catch((err: unknown) => ({ ok: false, status: String(err) }));
  // Ack only once the answer is stored; otherwise JetStream delivers it again in 2 s.
  if (res.ok) msg.ack();
  else msg.nak(2_000);
}
