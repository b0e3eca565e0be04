// A custom agent with nothing but a NATS client and fetch: the subjects and
// payloads are the contract, so the same works from any language.
// Run against `npm start` (NATS is locked there):
//   NATS_URL=$(cat .crumbs/nats/url) NATS_CREDS=creds-file CRUMBS_TOKEN=... npx tsx agents/examples/raw-nats-agent.ts
// where creds-file is `npx crumbs keys nats-creds > owner.creds` (your token's owner) or
// .crumbs/nats/auth/runner.creds (the operator's). The wire contract for another language:
//   1. POST /v1/nats/credentials with the token -> {creds} (a .creds file: user JWT + nkey seed);
//      connect with them (nats.go nats.UserCredentials, nats.py user_credentials=...);
//   2. a durable pull consumer on stream CRUMBS, filter crumbs.<owner|*>.<type>.<schema_name>;
//   3. each message's payload is a BreadcrumbEvent; ack once handled, nak to have it again.
import { readFileSync } from "node:fs";
import { AckPolicy, DeliverPolicy, connect, credsAuthenticator } from "nats";

const api = process.env.CRUMBS_URL ?? "http://127.0.0.1:8081";
const token = process.env.CRUMBS_TOKEN ?? "";
const credsFile = process.env.NATS_CREDS;
const nc = await connect({
  servers: (process.env.NATS_URL ?? "nats://127.0.0.1:4222").split(","),
  maxReconnectAttempts: -1,
  // Without NATS_CREDS: an open server (a nats-server of your own).
  ...(credsFile ? { authenticator: credsAuthenticator(readFileSync(credsFile)) } : {}),
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
