const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/** Prometheus text exposition, hand-rolled: a handful of series do not justify a client library. */
export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Histogram>();
  private published = 0;
  private parked = 0;

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const rk = `method="${method}",route="${esc(route)}",status="${status}"`;
    this.requests.set(rk, (this.requests.get(rk) ?? 0) + 1);
    const lk = `method="${method}",route="${esc(route)}"`;
    let h = this.latency.get(lk);
    if (!h) {
      h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.latency.set(lk, h);
    }
    for (const [i, b] of BUCKETS.entries()) if (seconds <= b) h.counts[i]! += 1;
    h.sum += seconds;
    h.count++;
  }

  addPublished(n: number): void {
    this.published += n;
  }

  addParked(n: number): void {
    this.parked += n;
  }

  render(gauges: { outboxBacklog?: number; outboxParked?: number }): string {
    const out: string[] = [];
    out.push("# HELP crumbs_http_requests_total HTTP requests by route and status.");
    out.push("# TYPE crumbs_http_requests_total counter");
    for (const [k, v] of this.requests) out.push(`crumbs_http_requests_total{${k}} ${v}`);
    out.push("# HELP crumbs_http_request_duration_seconds HTTP request latency.");
    out.push("# TYPE crumbs_http_request_duration_seconds histogram");
    for (const [k, h] of this.latency) {
      for (const [i, b] of BUCKETS.entries()) {
        out.push(`crumbs_http_request_duration_seconds_bucket{${k},le="${b}"} ${h.counts[i]}`);
      }
      out.push(`crumbs_http_request_duration_seconds_bucket{${k},le="+Inf"} ${h.count}`);
      out.push(`crumbs_http_request_duration_seconds_sum{${k}} ${h.sum}`);
      out.push(`crumbs_http_request_duration_seconds_count{${k}} ${h.count}`);
    }
    out.push("# HELP crumbs_outbox_published_total Events the relay published to JetStream.");
    out.push("# TYPE crumbs_outbox_published_total counter");
    out.push(`crumbs_outbox_published_total ${this.published}`);
    out.push("# HELP crumbs_outbox_parked_total Outbox rows the relay parked (dead-lettered) instead of publishing.");
    out.push("# TYPE crumbs_outbox_parked_total counter");
    out.push(`crumbs_outbox_parked_total ${this.parked}`);
    if (gauges.outboxParked !== undefined) {
      out.push("# HELP crumbs_outbox_parked Rows waiting in outbox_parked for `crumbs outbox retry`.");
      out.push("# TYPE crumbs_outbox_parked gauge");
      out.push(`crumbs_outbox_parked ${gauges.outboxParked}`);
    }
    if (gauges.outboxBacklog !== undefined) {
      out.push("# HELP crumbs_outbox_backlog Committed events not yet published.");
      out.push("# TYPE crumbs_outbox_backlog gauge");
      out.push(`crumbs_outbox_backlog ${gauges.outboxBacklog}`);
    }
    return out.join("\n") + "\n";
  }
}

const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
