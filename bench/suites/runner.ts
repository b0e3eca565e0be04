import { connect } from "nats";
import { CrumbsClient, handleEvents, respondTo } from "@crumbs/agent-sdk";
import { startRunner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { FakeOpenAI } from "@crumbs/testkit";
import type { Suite } from "../types.ts";
import { round } from "../stats.ts";
import { higherIsBetter, lowerIsBetter } from "../lib/figures.ts";
import { startStack, TOKEN } from "../lib/stack.ts";
import { processCpuMs } from "../lib/cpu-account.ts";
import { profiled } from "../lib/cpu-profile.ts";
import { measureManyDefinitions, unmatched } from "../lib/runner-definitions.ts";
import { measureOneConsumerFloor } from "../lib/one-consumer-floor.ts";

const CLIENTS = 8;
/** Rounds of runner then minimal agent, each with its share of the triggers. */
const ROUNDS = 2;

interface Phase {
  n: number;
  seconds: number;
  apiCpuMs: number;
  selfCpuMs: number;
}

/** The rounds of one side together: the rate over all their triggers, CPU per trigger, each round's rate. */
function total(rounds: Phase[]) {
  const n = rounds.reduce((a, p) => a + p.n, 0);
  const seconds = rounds.reduce((a, p) => a + p.seconds, 0);
  return {
    n,
    seconds,
    perSecond: rounds.map((p) => round(p.n / p.seconds, 1)),
    apiCpuMs: round(rounds.reduce((a, p) => a + p.apiCpuMs, 0) / n, 2),
    agentCpuMs: round(rounds.reduce((a, p) => a + p.selfCpuMs, 0) / n, 2),
  };
}
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
    const perRound = count / ROUNDS;
    const stack = await startStack({ relayPollMs: 100 });
    const fake = await FakeOpenAI.start();
    fake.setScript({ kind: "text", content: "ok" });
    const nc = await connect({ servers: stack.nats.url });
    const client = new CrumbsClient({ url: stack.api.url, token: TOKEN, natsUrl: stack.nats.url });
    let answered = 0;
    const sub = nc.subscribe("crumbs.default.created.agent.response.v1", { callback: () => answered++ });

    /**
     * Posts `n` triggers (message numbers from `first`, each in a session of its own) with CLIENTS
     * writers and times until every answer's event arrived, with the CPU of the API process and of
     * this one (the agent, and the writers' few µs).
     */
    const drive = async (agentId: string, first: number, n: number): Promise<Phase> => {
      answered = 0;
      const cpu0 = { api: processCpuMs(stack.api.pid), self: process.cpuUsage() };
      const t0 = performance.now();
      let next = first;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          for (let i = next++; i < first + n; i = next++) await stack.http.json("POST", "/v1/breadcrumbs", 201, { body: chat(agentId, i) });
        }),
      );
      const deadline = Date.now() + 120_000;
      while (answered < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (answered < n) throw new Error(`${agentId}: ${answered} of ${n} answered`);
      const self = process.cpuUsage(cpu0.self);
      return { n, seconds: (performance.now() - t0) / 1000, apiCpuMs: processCpuMs(stack.api.pid) - cpu0.api, selfCpuMs: (self.user + self.system) / 1000 };
    };

    try {
      const r = await startRunner({ crumbsUrl: stack.api.url, token: TOKEN, natsUrl: stack.nats.url, openaiBaseUrl: fake.url, openaiApiKey: "bench", logger: silentLogger });
      const runnerRounds: Phase[] = [];
      const sdkRounds: Phase[] = [];
      let minimal: { stop(): Promise<void> } | undefined;
      try {
        await stack.http.json("POST", "/v1/breadcrumbs", 201, { body: agentDef("bench-runner") });
        const deadline = Date.now() + 15_000;
        while (!r.agents().some((a) => a.def.agent_id === "bench-runner") && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
        // Baseline: the same IO by hand with the SDK: durable consumer, one model call, one idempotent reply.
        minimal = handleEvents(
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
        // Rounds alternate, so a change in the machine's load between phases falls on both sides.
        for (let k = 0; k < ROUNDS; k++) {
          log(`round ${k + 1}: runner, then minimal SDK agent, ${perRound} triggers each`);
          runnerRounds.push(await profiled(`runner-round-${k + 1}`, () => drive("bench-runner", k * perRound, perRound)));
          // Profiling the API (BENCH_API_NODE_ARGS=--cpu-prof) over the runner's triggers alone: stop here.
          if (process.env.PROF_ONLY_RUNNER) throw new Error("profile done");
          sdkRounds.push(await profiled(`minimal-round-${k + 1}`, () => drive("bench-minimal", k * perRound, perRound)));
        }
      } finally {
        await minimal?.stop();
        await r.close();
      }
      const viaRunner = total(runnerRounds);
      const viaSdk = total(sdkRounds);

      const events = quick ? 20 : 50;
      const many = await measureManyDefinitions(stack, { definitions: DEFINITIONS, events, openaiBaseUrl: fake.url, token: TOKEN, log });
      log(`${events} more such events through one consumer and the selector index`);
      const floor = await measureOneConsumerFloor(stack, { token: TOKEN, owner: "default", events, event: (i) => unmatched(events + i) });

      return {
        suite: "runner",
        figures: [
          higherIsBetter({
            metric: "runner triggers/s (instant model)",
            value: round(viaRunner.n / viaRunner.seconds, 1),
            unit: "/s",
            baseline: { name: "minimal SDK agent", value: round(viaSdk.n / viaSdk.seconds, 1), unit: "/s" },
            goal: ">= 0.8x minimal SDK agent",
            minRatio: 0.8,
          }),
          {
            metric: "CPU per trigger: API process; this process (agent + writers)",
            value: viaRunner.apiCpuMs,
            unit: `ms; ${viaRunner.agentCpuMs} ms`,
            baseline: { name: "minimal SDK agent", value: viaSdk.apiCpuMs, unit: `ms; ${viaSdk.agentCpuMs} ms` },
          },
          lowerIsBetter({
            metric: `start-up with ${DEFINITIONS.toLocaleString("en")} agent definitions (to ready)`,
            value: many.startupMs,
            unit: "ms",
            baseline: { name: "list, parse, index; one consumer", value: floor.readyMs, unit: "ms" },
          }),
          { metric: `memory of ${DEFINITIONS.toLocaleString("en")} agents: RSS; heap`, value: many.rssMiB, unit: `MiB; ${many.heapMiB} MiB` },
          lowerIsBetter({
            metric: `routing one event past ${DEFINITIONS.toLocaleString("en")} agents: runner CPU; wall`,
            value: many.routeCpuMs,
            unit: `ms; ${many.routeWallMs} ms`,
            baseline: { name: "one consumer + selector index", value: floor.routeCpuMs, unit: `ms; ${floor.routeWallMs} ms` },
          }),
          { metric: `one event against ${DEFINITIONS.toLocaleString("en")} agents' selectors, in process (median)`, value: many.matchUs, unit: "µs" },
        ],
        params: { triggers: count, writers: CLIENTS, runner: viaRunner, minimal: viaSdk, model_requests: fake.requests.length, many, one_consumer_floor: floor },
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
