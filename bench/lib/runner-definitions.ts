import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { connect } from "nats";
import { compileSelector, STREAM_NAME, type SelectorTarget } from "@crumbs/schemas";
import { startRunner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { median, round } from "../stats.ts";
import type { BenchStack } from "./stack.ts";

// One runner hosting many agent definitions: how long it takes to be ready, what it holds in
// memory, and what one event costs it to route. Every definition here listens to chat messages
// (one subject), the way a team's agents do, so each event reaches every agent's consumer and
// each agent's selector decides; the events used for routing match none of them.

const WRITERS = 8;

/** A full garbage collection, so the memory rows compare live objects rather than the collector's timing. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

export const manyAgentDef = (i: number) => ({
  schema_name: "agent.def.v1",
  title: `many ${i}`,
  tags: ["agent:def", `agent:many-${i}`],
  context: {
    agent_id: `many-${i}`,
    model: "bench-model",
    system_prompt: "Answer in one word.",
    subscriptions: { selectors: [{ schema_name: "chat.message.v1", all_tags: ["user:message", `many:${i}`] }] },
  },
});

/** A chat message none of the definitions match (each listens to its own `many:<i>` tag). */
export const unmatched = (i: number) => ({
  schema_name: "chat.message.v1",
  title: `nobody's ${i}`,
  tags: ["user:message", "many:none", `session:none-${i}`],
  context: { role: "user", content: `message ${i}`, session_id: `none-${i}` },
});

async function inParallel(count: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    for (let i = next++; i < count; i = next++) await fn(i);
  }));
}

export interface ManyDefinitions {
  definitions: number;
  startupMs: number;
  rssMiB: number;
  heapMiB: number;
  /** Wall time from posting the events until every agent's consumer had acked them, per event. */
  routeWallMs: number;
  /** CPU of this process (the runner, and the little the poster and the drain check take) per event. */
  routeCpuMs: number;
  /** One event matched in process against every definition's compiled selectors, median. */
  matchUs: number;
}

export async function measureManyDefinitions(
  stack: BenchStack,
  opts: { definitions: number; events: number; openaiBaseUrl: string; token: string; log: (m: string) => void },
): Promise<ManyDefinitions> {
  const { definitions, events, log } = opts;
  log(`${definitions} agent definitions`);
  await inParallel(definitions, (i) => stack.http.json("POST", "/v1/breadcrumbs", 201, { body: manyAgentDef(i) }));

  collectGarbage();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const r = await startRunner({ crumbsUrl: stack.api.url, token: opts.token, natsUrl: stack.nats.url, openaiBaseUrl: opts.openaiBaseUrl, openaiApiKey: "bench", logger: silentLogger });
  const startupMs = performance.now() - t0;
  const nc = await connect({ servers: stack.nats.url });
  try {
    const hosted = r.agents().filter((a) => a.def.agent_id.startsWith("many-"));
    if (hosted.length !== definitions) throw new Error(`the runner started with ${hosted.length} of ${definitions} agents`);
    collectGarbage();
    const after = process.memoryUsage();

    log(`routing ${events} events past ${definitions} agents`);
    const jsm = await nc.jetstreamManager();
    const cpu0 = process.cpuUsage();
    const t1 = performance.now();
    await inParallel(events, (i) => stack.http.json("POST", "/v1/breadcrumbs", 201, { body: unmatched(i) }));
    const drained = async () => {
      let agents = 0;
      for await (const c of jsm.consumers.list(STREAM_NAME)) {
        if (!c.name.includes("_many-")) continue;
        if (c.num_pending > 0 || c.num_ack_pending > 0) return false;
        agents++;
      }
      return agents === definitions;
    };
    const deadline = Date.now() + 300_000;
    while (!(await drained())) {
      if (Date.now() > deadline) throw new Error("the agents' consumers did not drain in 300 s");
      await new Promise((res) => setTimeout(res, 250));
    }
    const routeWallMs = (performance.now() - t1) / events;
    const cpu = process.cpuUsage(cpu0);
    const routeCpuMs = (cpu.user + cpu.system) / 1000 / events;

    // The in-process part alone: each agent's compiled selectors against one event.
    const matchers = hosted.map((a) => {
      const compiled = a.def.subscriptions.selectors.map((sel) => compileSelector(sel));
      return (b: SelectorTarget) => compiled.some((c) => c.matches(b));
    });
    const target: SelectorTarget = unmatched(0);
    const samples: number[] = [];
    for (let round_ = 0; round_ < 50; round_++) {
      const s = performance.now();
      for (let k = 0; k < 20; k++) for (const m of matchers) m(target);
      samples.push(((performance.now() - s) * 1000) / 20);
    }
    return {
      definitions,
      startupMs: round(startupMs, 0),
      rssMiB: round((after.rss - before.rss) / 2 ** 20, 1),
      heapMiB: round((after.heapUsed - before.heapUsed) / 2 ** 20, 1),
      routeWallMs: round(routeWallMs, 2),
      routeCpuMs: round(routeCpuMs, 2),
      matchUs: round(median(samples), 1),
    };
  } finally {
    await nc.close();
    await r.close();
  }
}
