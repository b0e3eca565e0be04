import { AckPolicy, connect, DeliverPolicy } from "nats";
import { CrumbsHttp } from "@crumbs/agent-sdk";
import { agentDefContextSchema, SelectorIndex, STREAM_NAME, type SelectorTarget } from "@crumbs/schemas";
import { round } from "../stats.ts";
import type { BenchStack } from "./stack.ts";

// The floor under the runner's 1,000-definition rows: what routing would cost with one durable
// consumer for all the agents and the selector index deciding which of them an event is for,
// instead of one consumer per agent. Same stack, same definitions, same events and poster as the
// runner's rows, so the two compare in one run. It does the routing part only (list, parse and index
// the definitions; one delivery, one JSON parse, one index match and one ack per event); what the
// runner would add to keep its guarantees (per-agent progress, acks held for the slowest agent)
// is not in it.

const CONSUMER = "bench_one_consumer";
const WRITERS = 8;

export interface OneConsumerFloor {
  /** List, parse and index every definition, then start one consumer. */
  readyMs: number;
  routeWallMs: number;
  /** This process's CPU per event: the consumer, and the poster (as in the runner's row). */
  routeCpuMs: number;
}

export async function measureOneConsumerFloor(
  stack: BenchStack,
  opts: { token: string; owner: string; events: number; event: (i: number) => SelectorTarget & { title: string } },
): Promise<OneConsumerFloor> {
  const nc = await connect({ servers: stack.nats.url });
  const jsm = await nc.jetstreamManager();
  let stop = () => {};
  try {
    const t0 = performance.now();
    const index = new SelectorIndex<string>();
    const http = new CrumbsHttp({ url: stack.api.url, token: opts.token });
    for await (const b of http.listAll({ schema_name: "agent.def.v1" })) {
      const def = agentDefContextSchema.safeParse(b.context);
      if (def.success) def.data.subscriptions.selectors.forEach((s, k) => index.add(`${b.id}#${k}`, s, def.data.agent_id));
    }
    await jsm.consumers.add(STREAM_NAME, {
      durable_name: CONSUMER,
      filter_subject: `crumbs.${opts.owner}.>`,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
    });
    const messages = await nc.jetstream().consumers.get(STREAM_NAME, CONSUMER).then((c) => c.consume({ max_messages: 256 }));
    stop = () => messages.stop();
    const readyMs = performance.now() - t0;

    let routed = 0;
    const loop = (async () => {
      for await (const m of messages) {
        const payload = m.json<{ breadcrumb?: SelectorTarget }>();
        if (payload.breadcrumb) index.match(payload.breadcrumb);
        m.ack();
        routed++;
      }
    })();
    const cpu0 = process.cpuUsage();
    const t1 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        for (let i = next++; i < opts.events; i = next++) await stack.http.json("POST", "/v1/breadcrumbs", 201, { body: opts.event(i) });
      }),
    );
    const deadline = Date.now() + 120_000;
    for (;;) {
      const info = await jsm.consumers.info(STREAM_NAME, CONSUMER);
      if (routed >= opts.events && info.num_pending === 0 && info.num_ack_pending === 0) break;
      if (Date.now() > deadline) throw new Error(`one consumer: ${routed} of ${opts.events} events routed in 120 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const routeWallMs = (performance.now() - t1) / opts.events;
    const cpu = process.cpuUsage(cpu0);
    stop();
    await loop;
    return { readyMs: round(readyMs, 0), routeWallMs: round(routeWallMs, 2), routeCpuMs: round((cpu.user + cpu.system) / 1000 / opts.events, 2) };
  } finally {
    stop();
    await jsm.consumers.delete(STREAM_NAME, CONSUMER).catch(() => false);
    await nc.close();
  }
}
