import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { chatMessage, listAll, spawnCrumbs, startStack, waitForAgentDrained, type TestStack } from "./stack.ts";

const TRIGGERS = 500;

const spawnRunner = (env: Record<string, string>) => spawnCrumbs(["runner"], { ...env, RUNNER_ACK_WAIT_MS: "3000" });

describe("two runner processes on one agent", () => {
  let s: TestStack;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    s = await startStack();
    await s.client.create({
      schema_name: "agent.def.v1",
      title: "load agent",
      tags: [],
      context: {
        agent_id: "load",
        model: "test-model",
        system_prompt: "answer briefly",
        subscriptions: { selectors: [{ schema_name: "chat.message.v1", any_tags: ["user:message"] }] },
        capabilities: {},
      },
    });
    // A few ms per answer so that work is still in flight when a runner is killed.
    s.fake.setScript({ kind: "slow", delayMs: 5, then: { kind: "text", content: "ok" } });
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    await s?.close();
  });

  it(`gives exactly ${TRIGGERS} responses to ${TRIGGERS} triggers when one runner is killed mid-run`, async () => {
    const a = spawnRunner(s.env);
    const b = spawnRunner(s.env);
    children.push(a, b);
    for (const c of [a, b]) {
      await waitFor(() => c.output.join("").includes("agent running"), {
        timeout: 20_000,
        message: "runner up",
      });
    }
    const t0 = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < TRIGGERS; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, TRIGGERS - i) }, (_, j) =>
          s.client.create(chatMessage(`m${i + j}`, `load-${i + j}`)),
        ),
      );
      ids.push(...batch.map((m) => m.id));
    }
    await waitFor(async () => (await listAll(s.client, "agent.response.v1")).length >= 100, {
      timeout: 30_000,
    });
    a.kill("SIGKILL");
    const atKill = (await listAll(s.client, "agent.response.v1")).length;
    expect(atKill).toBeLessThan(TRIGGERS);
    const responses = await waitFor(
      async () => {
        const r = await listAll(s.client, "agent.response.v1");
        return r.length >= TRIGGERS ? r : undefined;
      },
      { timeout: 60_000, interval: 250, message: `${TRIGGERS} responses` },
    );
    const elapsed = Date.now() - t0;
    // Redeliveries of what the killed runner held must not write a second answer: wait until the
    // consumer has redelivered and got acks for all of it, then count.
    const drained = await waitForAgentDrained(s, "load");
    expect(drained.delivered.stream_seq).toBeGreaterThanOrEqual(TRIGGERS);
    const final = await listAll(s.client, "agent.response.v1");
    expect(final).toHaveLength(TRIGGERS);
    const answered = new Set(final.map((r) => (r.context.in_reply_to as { id: string }).id));
    expect(answered).toEqual(new Set(ids));
    console.log(
      `${TRIGGERS} triggers -> ${responses.length} responses in ${elapsed} ms (runner A killed at ${atKill})`,
    );
  }, 120_000);
});
