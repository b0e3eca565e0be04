import { connect } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { chatMessage, installPageAssistant, startStack, startStackRunner, waitForCount, type TestStack } from "./stack.ts";

/**
 * A trigger larger than the NATS server's max_payload reaches NATS as a reference event;
 * the runner completes it from the API, so the agent sees the whole message.
 */
describe("runner with a trigger too large for NATS", () => {
  let s: TestStack;
  let runner: Runner;

  beforeAll(async () => {
    s = await startStack({ maxPayload: 32 * 1024 });
    runner = await startStackRunner(s, {
      modelTimeoutMs: 1_500,
      logger: silentLogger,
    });
    await installPageAssistant(s.client, runner);
  });
  afterAll(async () => {
    await runner?.close();
    await s?.close();
  });

  it("answers a 60 KB chat message that went over NATS without its breadcrumb", async () => {
    const nc = await connect({ servers: s.nats.url });
    const wire: Record<string, unknown>[] = [];
    nc.subscribe("crumbs.*.created.chat.message.v1", { callback: (_e, m) => wire.push(m.json()) });
    try {
      const content = `question ${"x".repeat(60_000)} END-OF-QUESTION`;
      s.fake.queue([{ kind: "text", content: "answered" }]);
      const before = s.fake.requests.length;
      const msg = await s.client.create(chatMessage(content, "big"));
      const [response] = await waitForCount(s.client, "agent.response.v1", 1, "session:big");
      expect(response!.context).toMatchObject({ content: "answered", in_reply_to: { id: msg.id, version: 1 } });
      expect(wire).toHaveLength(1);
      expect(wire[0]).toMatchObject({ id: msg.id, truncated: true });
      expect(wire[0]).not.toHaveProperty("breadcrumb");
      const prompt = s.fake.requests[before]!.body.messages.map((m) => m.content ?? "").join("\n");
      expect(prompt).toContain("END-OF-QUESTION");
    } finally {
      await nc.close();
    }
  }, 60_000);
});
