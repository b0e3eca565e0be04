import { connect } from "nats";
import { CrumbsClient, handleEvents, respondTo } from "@crumbs/agent-sdk";
import { startRunner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { FakeOpenAI } from "@crumbs/testkit";
import type { Suite } from "../types.ts";
import { round } from "../stats.ts";
import { higherIsBetter } from "../lib/figures.ts";
import { startStack, TOKEN } from "../lib/stack.ts";
import { processCpuMs } from "../lib/cpu-account.ts";
import { measureManyDefinitions } from "../lib/runner-definitions.ts";

const CLIENTS = 8;
/** Definitions one runner hosts in the start-up, memory and routing rows. */
const DEFINITIONS = 1_000;

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
  description: "triggers/s through the runner with an instant fake model, beside a minimal SDK agent doing the same IO; a runner with 1,000 agents",
  async run({ quick, log }) {
    const count = quick ? 100 : 400;
    const stack = await startStack({ relayPollMs: 100 });
    const fake = await FakeOpenAI.start();
    fake.setScript({ kind: "text", content: "ok" });
    const nc = await connect({ servers: stack.nats.url });
    const client = new CrumbsClient({ url: stack.api.url, token: TOKEN, natsUrl: stack.nats.url });
    let answered = 0;
    const sub = nc.subscribe("crumbs.default.created.agent.response.v1", { callback: () => answered++ });

    /**
     * Posts `count` triggers with CLIENTS writers and times until every answer's event arrived, with
     * the CPU per trigger of the API process and of this one (the agent, and the writers' few µs).
     */
    const drive = async (agentId: string) => {
      answered = 0;
      const cpu0 = { api: processCpuMs(stack.api.pid), self: process.cpuUsage() };
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
      const seconds = (performance.now() - t0) / 1000;
      const self = process.cpuUsage(cpu0.self);
      return {
        seconds,
        posted,
        apiCpuMs: round((processCpuMs(stack.api.pid) - cpu0.api) / count, 2),
        agentCpuMs: round((self.user + self.system) / 1000 / count, 2),
      };
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

      if (process.env.PROF_ONLY_RUNNER) throw new Error("profile done");
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

      const many = await measureManyDefinitions(stack, { definitions: DEFINITIONS, events: quick ? 20 : 50, openaiBaseUrl: fake.url, token: TOKEN, log });

      return {
        suite: "runner",
        figures: [
          higherIsBetter({
            metric: "runner triggers/s (instant model)",
            value: round(count / viaRunner.seconds, 1),
            unit: "/s",
            baseline: { name: "minimal SDK agent", value: round(count / viaSdk.seconds, 1), unit: "/s" },
            goal: ">= 0.8x minimal SDK agent",
            minRatio: 0.8,
          }),
          {
            metric: "CPU per trigger: API process; this process (agent + writers)",
            value: viaRunner.apiCpuMs,
            unit: `ms; ${viaRunner.agentCpuMs} ms`,
            baseline: { name: "minimal SDK agent", value: viaSdk.apiCpuMs, unit: `ms; ${viaSdk.agentCpuMs} ms` },
          },
          { metric: `start-up with ${DEFINITIONS.toLocaleString("en")} agent definitions (to ready)`, value: many.startupMs, unit: "ms" },
          { metric: `memory of ${DEFINITIONS.toLocaleString("en")} agents: RSS; heap`, value: many.rssMiB, unit: `MiB; ${many.heapMiB} MiB` },
          {
            metric: `routing one event past ${DEFINITIONS.toLocaleString("en")} agents: wall; runner CPU`,
            value: many.routeWallMs,
            unit: `ms; ${many.routeCpuMs} ms`,
          },
          { metric: `one event against ${DEFINITIONS.toLocaleString("en")} agents' selectors, in process (median)`, value: many.matchUs, unit: "µs" },
        ],
        params: { triggers: count, writers: CLIENTS, runner: viaRunner, minimal: viaSdk, model_requests: fake.requests.length, many },
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
