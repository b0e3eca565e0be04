import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import type { RecordedRequest } from "@crumbs/testkit";
import { chatMessage, installPageAssistant, startStack, startStackRunner, waitForCount, type TestStack } from "./stack.ts";

const promptOf = (r: RecordedRequest) => r.body.messages.map((m) => m.content ?? "").join("\n");

describe("runner concurrency: sessions side by side, one session in order", () => {
  let s: TestStack;
  let runner: Runner;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    s = await startStack();
    runner = await startStackRunner(s, { logger: silentLogger });
    await installPageAssistant(s.client, runner);
  });
  afterAll(async () => {
    release();
    await runner?.close();
    await s?.close();
  });

  it("answers another session while one session's model call is out, and that session's next message after it", async () => {
    // The first message's model call is held until the test lets it go; every other call answers at once.
    s.fake.setScript(async (req) => {
      const prompt = promptOf(req);
      if (prompt.includes("The user says:\nslow question")) {
        await gate;
        return { kind: "text", content: "slow answer" };
      }
      return { kind: "text", content: prompt.includes("The user says:\nfollow-up") ? "follow-up answer" : "other answer" };
    });
    await s.client.create(chatMessage("slow question", "c1"));
    await s.client.create(chatMessage("follow-up", "c1"));
    await s.client.create(chatMessage("other question", "c2"));

    const [other] = await waitForCount(s.client, "agent.response.v1", 1, "session:c2");
    expect(other!.context.content).toBe("other answer");
    // Session c1's first call is still held, and its second message has not reached the model.
    const calls = s.fake.requests.map(promptOf);
    expect(calls.filter((p) => p.includes("The user says:\nslow question"))).toHaveLength(1);
    expect(calls.filter((p) => p.includes("The user says:\nfollow-up"))).toHaveLength(0);

    release();
    const answers = await waitForCount(s.client, "agent.response.v1", 2, "session:c1");
    expect(answers.map((a) => a.context.content).sort()).toEqual(["follow-up answer", "slow answer"]);
    // The follow-up reached the model only after the first call had its answer.
    const slowAt = s.fake.requests.findIndex((r) => promptOf(r).includes("The user says:\nslow question"));
    const followUp = s.fake.requests.findIndex((r) => promptOf(r).includes("The user says:\nfollow-up"));
    expect(s.fake.requests[slowAt]!.ended).toBe("answered");
    expect(followUp).toBeGreaterThan(slowAt);
  });
});
