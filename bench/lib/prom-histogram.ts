import { seriesSamples } from "@crumbs/testkit";

/**
 * A Prometheus histogram read from /metrics text, so a suite can set what the API saw of a phase
 * (the difference of two reads) beside what the bench measured from outside.
 */
export interface HistogramReading {
  /** Cumulative counts by upper bound, in bound order; the last bound is Infinity. */
  buckets: { le: number; count: number }[];
}

/** The buckets of an unlabelled histogram `name`; undefined when the text has none. */
export function readHistogram(text: string, name: string): HistogramReading | undefined {
  const buckets = seriesSamples(text, `${name}_bucket`)
    .filter((s) => s.labels.le !== undefined)
    .map((s) => ({ le: s.labels.le === "+Inf" ? Infinity : Number(s.labels.le), count: s.value }));
  if (buckets.length === 0) return undefined;
  return { buckets: buckets.sort((a, b) => a.le - b.le) };
}

/**
 * The upper bound of the bucket holding quantile `q` of what was observed between two readings
 * (Infinity when it is past the last finite bound); undefined when nothing was observed.
 */
export function quantileBound(before: HistogramReading, after: HistogramReading, q: number): number | undefined {
  const counts = after.buckets.map((b, i) => ({ le: b.le, n: b.count - (before.buckets[i]?.count ?? 0) }));
  const total = counts.at(-1)?.n ?? 0;
  if (total <= 0) return undefined;
  return counts.find((b) => b.n >= q * total)?.le;
}
