// The figures of the event-latency suite (event-latency.ts): what a phase's timings and the
// processes' CPU counters become in the report. Split from the suite so each file reads in one sitting.
import type { Figure } from "../types.ts";
import { percentile, round } from "../stats.ts";
import { lowerIsBetter } from "../lib/figures.ts";
import { machineCpuMs, mainThreadCpuMs, postgresCpuMs, processCpuMs, selfAndReapedCpuMs } from "../lib/cpu-account.ts";
import type { StreamListener } from "../lib/stream-listener.ts";

export const DELAY_SERIES = "crumbs_outbox_publish_delay_seconds";

/** The API histogram's p99 bucket for a phase, when it observed anything: from the start of the write's statement. */
export function apiDelayFigure(rate: string, p99: number | undefined): Figure[] {
  if (p99 === undefined) return [];
  const past = !Number.isFinite(p99);
  return [
    {
      metric: `write statement->ack p99 at ${rate} (API's histogram, bucket bound)`,
      value: past ? 300_000 : p99 * 1000,
      unit: "ms",
      note: past ? "past its last bucket (300 s)" : `from ${DELAY_SERIES}`,
    },
  ];
}

/**
 * Each event's delay from its write (or publish) to its subscriber, and the same delay split at the
 * moment JetStream stored it: up to the store (the API's relay and nats-server's intake), and from
 * the store to the subscriber (the delivery, which the API does not touch).
 */
export function latencies(sent: Map<string, number>, listener: StreamListener) {
  const out: number[] = [];
  const toStored: number[] = [];
  const delivered: number[] = [];
  let early = 0;
  let missing = 0;
  for (const [k, t] of sent) {
    const r = listener.seen.get(k);
    if (r === undefined) missing++;
    else {
      // The relay may publish before the HTTP response reaches the client: that event waited 0 ms.
      if (r < t) early++;
      out.push(Math.max(0, r - t));
      const at = listener.stored.get(k)!;
      toStored.push(Math.max(0, at - t));
      delivered.push(Math.max(0, r - at));
    }
  }
  return { out, toStored, delivered, early, missing };
}

/** The whole machine's CPU over a phase (every process: the API, Postgres, nats-server, this one): per event, and its busy share. */
export function machineUse(m0: { busy: number; total: number }, m1: { busy: number; total: number }, events: number) {
  return { msPerEvent: (m1.busy - m0.busy) / Math.max(1, events), busy: (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total) };
}

/**
 * CPU time so far of the parts an event passes through, in ms: the API process and its HTTP thread
 * (both 0 once it is stopped, as in the floor's phase), the relay's own Postgres backend (0 when
 * there is none), all of Postgres (undefined when it runs elsewhere) and this process (the load
 * generator, the listener's thread and, in the floor's phase, the commits and publishes).
 */
export interface Parts {
  api: number;
  apiMain: number;
  relayBackend: number;
  postgres?: number;
  bench: number;
  /** The whole machine (every process). */
  machine: { busy: number; total: number };
}
export function readParts(apiPid: number | undefined, relayPid: number | undefined, postmaster: number | undefined): Parts {
  return {
    api: apiPid === undefined ? 0 : processCpuMs(apiPid),
    apiMain: apiPid === undefined ? 0 : mainThreadCpuMs(apiPid),
    relayBackend: relayPid === undefined ? 0 : processCpuMs(relayPid),
    ...(postmaster !== undefined ? { postgres: postgresCpuMs(postmaster) } : {}),
    bench: selfAndReapedCpuMs(),
    machine: machineCpuMs(),
  };
}
/** Per event over a phase; the relay's backend only when it was the same process at both ends. */
export function partsPerEvent(p0: Parts, p1: Parts, events: number, relaySame: boolean) {
  const per = (a: number, b: number) => (b - a) / Math.max(1, events);
  return {
    api: per(p0.api, p1.api),
    apiMain: per(p0.apiMain, p1.apiMain),
    ...(relaySame && p1.relayBackend > 0 ? { relayBackend: per(p0.relayBackend, p1.relayBackend) } : {}),
    ...(p0.postgres !== undefined && p1.postgres !== undefined ? { postgres: per(p0.postgres, p1.postgres) } : {}),
    bench: per(p0.bench, p1.bench),
    machine: machineUse(p0.machine, p1.machine, events),
  };
}

export type PartsPerEvent = ReturnType<typeof partsPerEvent>;

/** The API's path split by process at one rate, with the floor's share of the same kind where it has one. */
export function partFigures(rate: number, api: PartsPerEvent, floor: PartsPerEvent): Figure[] {
  const ms = (v: number) => round(v, 3);
  return [
    lowerIsBetter({ metric: `API process CPU per event at ${rate}/s`, value: ms(api.api), unit: "ms" }),
    lowerIsBetter({ metric: `API HTTP thread CPU per event at ${rate}/s (part of the process)`, value: ms(api.apiMain), unit: "ms" }),
    ...(api.relayBackend !== undefined
      ? [lowerIsBetter({ metric: `relay's Postgres backend CPU per event at ${rate}/s`, value: ms(api.relayBackend), unit: "ms" })]
      : []),
    ...(api.postgres !== undefined && floor.postgres !== undefined
      ? [
          lowerIsBetter({
            metric: `Postgres CPU per event at ${rate}/s, all backends`,
            value: ms(api.postgres),
            unit: "ms",
            baseline: { name: "floor", value: ms(floor.postgres), unit: "ms" },
          }),
        ]
      : []),
    lowerIsBetter({
      metric: `bench process CPU per event at ${rate}/s (load, listener; the floor's commits and publishes)`,
      value: ms(api.bench),
      unit: "ms",
      baseline: { name: "floor", value: ms(floor.bench), unit: "ms" },
    }),
  ];
}

export async function waitUntil(cond: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}


interface PhaseTimes {
  out: number[];
  toStored: number[];
  delivered: number[];
}

/**
 * Where the write->event p99 at one rate comes from (up to JetStream's store, the delivery after it),
 * the least it could be here (a commit, then a publish, nothing in between), and the machine's CPU
 * per event and busy share that explain the difference.
 */
export function breakdownFigures(
  slowRate: number,
  slow: PhaseTimes & { parts: { machine: { msPerEvent: number; busy: number } } },
  bSlow: PhaseTimes,
  floor: PhaseTimes & { parts: { machine: { msPerEvent: number; busy: number } } },
): Figure[] {
  return [
    // Where the p99 above comes from: the part up to JetStream's store, and the delivery after it.
    lowerIsBetter({
      metric: `write->stored in JetStream p99 at ${slowRate}/s (first part of write->event)`,
      value: round(percentile(slow.toStored, 99)),
      unit: "ms",
      baseline: { name: "JetStream publish->stored", value: round(percentile(bSlow.toStored, 99), 3), unit: "ms" },
    }),
    lowerIsBetter({
      metric: `stored->subscriber p99 at ${slowRate}/s (second part)`,
      value: round(percentile(slow.delivered, 99)),
      unit: "ms",
      baseline: { name: "JetStream stored->subscriber", value: round(percentile(bSlow.delivered, 99), 3), unit: "ms" },
    }),
    // The least the p99 above could be here: a commit, then a publish, nothing in between.
    lowerIsBetter({
      metric: `floor: commit->event p99 at ${slowRate}/s (this process commits, then publishes)`,
      value: round(percentile(floor.out, 99)),
      unit: "ms",
      baseline: { name: "JetStream publish->receive", value: round(percentile(bSlow.out, 99), 3), unit: "ms" },
    }),
    // Why the two differ: the CPU each event costs the machine at that rate, and how busy that leaves it.
    lowerIsBetter({
      metric: `machine CPU per event at ${slowRate}/s, all processes`,
      value: round(slow.parts.machine.msPerEvent),
      unit: "ms",
      baseline: { name: "floor", value: round(floor.parts.machine.msPerEvent, 3), unit: "ms" },
    }),
    {
      metric: `machine busy at ${slowRate}/s`,
      value: round(100 * slow.parts.machine.busy, 1),
      unit: "%",
      baseline: { name: "floor", value: round(100 * floor.parts.machine.busy, 1), unit: "%" },
    },
  ];
}
