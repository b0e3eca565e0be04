// A custom agent with the SDK: answers every chat message in its session.
// Run: CRUMBS_URL=http://127.0.0.1:8081 CRUMBS_TOKEN=... NATS_URL=nats://127.0.0.1:4222 NATS_CREDS=.crumbs/nats/auth/runner.creds npx tsx agents/examples/sdk-echo-agent.ts
import { CrumbsClient } from "@crumbs/agent-sdk";

const env = process.env;
const client = new CrumbsClient({
  url: env.CRUMBS_URL ?? "http://127.0.0.1:8081",
  token: env.CRUMBS_TOKEN ?? "",
  natsUrl: env.NATS_URL ?? "nats://127.0.0.1:4222",
  // A locked NATS (npm start, docker compose): the runner's credentials, for a durable subscription.
  ...(env.NATS_CREDS ? { natsCreds: env.NATS_CREDS } : {}),
});

// Ctrl-C or SIGTERM ends the loop after the message in hand.
const stop = new AbortController();
process.on("SIGINT", () => stop.abort());
process.on("SIGTERM", () => stop.abort());

const selector = env.ECHO_SELECTOR ? JSON.parse(env.ECHO_SELECTOR) : { schema_name: "chat.message.v1", any_tags: ["user:message"] };
const messages = await client.subscribe(selector, {
  queue: "sdk-echo", // start more copies of this process to share the work
  subjectPrefix: env.ECHO_SUBJECT_PREFIX, // e.g. "replay" to hear `crumbs replay --publish replay`
  signal: stop.signal,
  onError: (err) => console.error("undeliverable event:", err),
});
console.log("sdk-echo listening");

for await (const { event, nak } of messages) {
  if (event.type === "breadcrumb.deleted") continue;
  const text = String(event.breadcrumb.context.content ?? event.title);
  try {
    // The idempotency key (agent:id:version) makes a redelivered message answer once.
    await client.respond(event.breadcrumb, `echo: ${text}`, { agentId: "sdk-echo", signal: stop.signal });
  } catch (err) {
    console.error("echo failed, will retry:", err);
    nak();
  }
}
await client.close();
