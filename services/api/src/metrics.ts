import { Counter, Gauge, Histogram, Registry, renderMetrics } from "@crumbs/telemetry";

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Finer around the 10 ms an event should take, and out to minutes for what waits out a NATS outage. */
const DELAY_BUCKETS = [0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * The API's series, in a registry of its own (two APIs in one test process never share counts);
 * /metrics adds the process and runtime series of @crumbs/telemetry and, in `crumbs start`, the
 * runner's registry (`extra`).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "crumbs_http_requests_total",
    help: "HTTP requests by route pattern and status.",
    labelNames: ["method", "route", "status"],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: "crumbs_http_request_duration_seconds",
    help: "HTTP request latency (until the response starts) by route pattern and status.",
    labelNames: ["method", "route", "status"],
    buckets: BUCKETS,
    registers: [this.registry],
  });
  private readonly published = new Counter({
    name: "crumbs_outbox_published_total",
    help: "Events the relay published to JetStream.",
    registers: [this.registry],
  });
  private readonly publishedFromMemory = new Counter({
    name: "crumbs_outbox_published_from_memory_total",
    help: "Of the events published, those handed to the relay by their write, published without reading the outbox.",
    registers: [this.registry],
  });
  private readonly publishDelay = new Histogram({
    name: "crumbs_outbox_publish_delay_seconds",
    help: "From a write's statement to JetStream's ack of its event.",
    buckets: DELAY_BUCKETS,
    registers: [this.registry],
  });
  private readonly parked = new Counter({
    name: "crumbs_outbox_parked_total",
    help: "Outbox rows the relay parked (dead-lettered) instead of publishing.",
    registers: [this.registry],
  });
  private readonly parkedNow = new Gauge({
    name: "crumbs_outbox_parked",
    help: "Rows waiting in outbox_parked for `crumbs outbox retry` (last value read).",
    registers: [this.registry],
  });
  private readonly backlog = new Gauge({
    name: "crumbs_outbox_backlog",
    help: "Committed events not yet published (last value read).",
    registers: [this.registry],
  });

  constructor(private readonly extra: readonly Registry[] = []) {}

  /** `route` is the pattern (`/v1/breadcrumbs/:id`), never the raw path: one series per route, not per id. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  /** Events the relay published, each with its delay in ms from its write to JetStream's ack; `fromMemory` of them without a read. */
  addPublished(delaysMs: readonly number[], fromMemory = 0): void {
    this.published.inc(delaysMs.length);
    this.publishedFromMemory.inc(fromMemory);
    for (const ms of delaysMs) this.publishDelay.observe(ms / 1000);
  }

  addParked(n: number): void {
    this.parked.inc(n);
  }

  /** Prometheus text; a gauge whose source failed this time keeps its last value. */
  async render(gauges: { outboxBacklog?: number | undefined; outboxParked?: number | undefined }): Promise<string> {
    if (gauges.outboxBacklog !== undefined) this.backlog.set(gauges.outboxBacklog);
    if (gauges.outboxParked !== undefined) this.parkedNow.set(gauges.outboxParked);
    return (await renderMetrics([this.registry, ...this.extra])).body;
  }
}
