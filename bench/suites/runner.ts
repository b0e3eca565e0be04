import { connect } from "nats";
import { CrumbsClient, handleEvents, respondTo } from "@crumbs/agent-sdk";
import { startRunner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { FakeOpenAI } from "@crumbs/testkit";
import type { Suite } from "../types.ts";
import { round } from "../stats.ts";
import { higherIsBetter } from "../lib/figures.ts";
import { startStack, TOKEN } from "../lib/stack.ts";

const CLIENTS = 8;

const agentDef = (agentId: string) => ({
  schema_name: "agent.def.v1",
  title: `bench agent ${agentId}`,
  tags: ["agent:def", `agent:${agentId}`],
  context: {
    agent_id: agentId,
    model: "bench-model",
    system_prompt: "Answer in one word.",
    subscriptions: { selectors: [{ schema_name: "chat.message.v1", all_tags: ["user:message", `bench:${agentId}`] }] },
    capabilities: { can_create_breadcrumbs: true },
  },
});

const chat = (agentId: string, i: number) => ({
  schema_name: "chat.message.v1",
  title: `message ${i}`,
  tags: ["user:message", `bench:${agentId}`, `session:${agentId}-${i}`],
  context: { role: "user", content: `message ${i}: what is on this page?`, session_id: `${agentId}-${i}` },
});

export const runner: Suite = {
  name: "runner",
  description: "triggers/s through the runner with an instant fake model, beside a minimal SDK agent doing the same IO",
  async run({ quick, log }) {
    const count = quick ? 100 : 400;
    const stack = await startStack({ relayPollMs: 100 });
    const fake = await FakeOpenAI.start();
    fake.setScript({ kind: "text", content: "ok" });
    const nc = await connect({ servers: stack.nats.url });
    const client = new CrumbsClient({ url: stack.api.url, token: TOKEN, natsUrl: stack.nats.url });
    let answered = 0;
    const sub = nc.subscribe("crumbs.default.created.agent.response.v1", { callback: () => answered++ });

    /** Posts `count` triggers with CLIENTS writers and times until every answer's event arrived. */
    const drive = async (agentId: string) => {
      answered = 0;
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          for (let i = next++; i < count; i = next++) await stack.http.json("POST", "/v1/breadcrumbs", 201, { body: chat(agentId, i) });
        }),
      );
      const posted = (performance.now() - t0) / 1000;
      const deadline = Date.now() + 120_000;
      while (answered < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (answered < count) throw new Error(`${agentId}: ${answered} of ${count} answered`);
      return { seconds: (performance.now() - t0) / 1000, posted };
    };

    try {
      const r = await startRunner({ crumbsUrl: stack.api.url, token: TOKEN, natsUrl: stack.nats.url, openaiBaseUrl: fake.url, openaiApiKey: "bench", logger: silentLogger });
      let viaRunner;
      try {
        await stack.http.json("POST", "/v1/breadcrumbs", 201, { body: agentDef("bench-runner") });
        const deadline = Date.now() + 15_000;
        while (!r.agents().some((a) => a.def.agent_id === "bench-runner") && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
        log(`runner: ${count} triggers`);
        viaRunner = await drive("bench-runner");
      } finally {
        await r.close();
      }

      // Baseline: the same IO by hand with the SDK: durable consumer, one model call, one idempotent reply.
      log(`minimal SDK agent: ${count} triggers`);
      const minimal = handleEvents(
        await client.subscribe({ schema_name: "chat.message.v1", all_tags: ["user:message", "bench:bench-minimal"] }, { durable: "bench-minimal", types: ["created"] }),
        async (event) => {
          const res = await fetch(`${fake.url}/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: "Bearer bench" },
            body: JSON.stringify({ model: "bench-model", messages: [{ role: "system", content: "Answer in one word." }, { role: "user", content: JSON.stringify(event.breadcrumb) }] }),
          });
          const body = (await res.json()) as { choices: { message: { content: string } }[] };
          await respondTo(client, event.breadcrumb, body.choices[0]!.message.content, { agentId: "bench-minimal" });
        },
      );
      const viaSdk = await drive("bench-minimal");
      await minimal.stop();

      return {
        suite: "runner",
        figures: [
          higherIsBetter({
            metric: "runner triggers/s (instant model)",
            value: round(count / viaRunner.seconds, 1),
            unit: "/s",
            baseline: { name: "minimal SDK agent", value: round(count / viaSdk.seconds, 1), unit: "/s" },
          }),
        ],
        params: { triggers: count, writers: CLIENTS, runner: viaRunner, minimal: viaSdk, model_requests: fake.requests.length },
      };
    } finally {
      sub.unsubscribe();
      await client.close().catch(() => {});
      await nc.close();
      await fake.close();
      await stack.close();
    }
  },
};
