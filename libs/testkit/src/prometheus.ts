/** One line of Prometheus text: a series' labels and its value. */
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** Every sample of the series `name` in Prometheus text, in the order they appear. */
export function seriesSamples(text: string, name: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!]));
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the series `name` with (at least) these labels, in Prometheus text; undefined when absent. */
export function seriesValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return seriesSamples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}
