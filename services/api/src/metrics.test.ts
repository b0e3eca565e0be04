import { describe, expect, it } from "vitest";
import { Counter, Registry } from "@crumbs/telemetry";
import { Metrics } from "./metrics.ts";

describe("Metrics", () => {
  it("renders counters, a cumulative histogram by route and status, and gauges in Prometheus text", async () => {
    const m = new Metrics();
    m.observeRequest("GET", "/v1/breadcrumbs/:id", 200, 0.003);
    m.observeRequest("GET", "/v1/breadcrumbs/:id", 200, 0.2);
    m.addPublished([2, 40, 3_000], 2);
    m.addParked(2);
    const text = await m.render({ outboxBacklog: 7, outboxParked: 1 });
    expect(text).toContain('crumbs_http_requests_total{method="GET",route="/v1/breadcrumbs/:id",status="200"} 2');
    expect(text).toContain('crumbs_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/v1/breadcrumbs/:id",status="200"} 1');
    expect(text).toContain('le="0.25",method="GET",route="/v1/breadcrumbs/:id",status="200"} 2');
    expect(text).toContain('le="+Inf",method="GET",route="/v1/breadcrumbs/:id",status="200"} 2');
    expect(text).toContain("crumbs_outbox_published_total 3");
    expect(text).toContain("crumbs_outbox_published_from_memory_total 2");
    // Delays come in ms and are kept in seconds: 2 ms, 40 ms, 3 s.
    expect(text).toContain('crumbs_outbox_publish_delay_seconds_bucket{le="0.0025"} 1');
    expect(text).toContain('crumbs_outbox_publish_delay_seconds_bucket{le="0.05"} 2');
    expect(text).toContain('crumbs_outbox_publish_delay_seconds_bucket{le="2.5"} 2');
    expect(text).toContain('crumbs_outbox_publish_delay_seconds_bucket{le="5"} 3');
    expect(Number(/^crumbs_outbox_publish_delay_seconds_sum (\S+)$/m.exec(text)?.[1])).toBeCloseTo(3.042, 6);
    expect(text).toContain("crumbs_outbox_backlog 7");
    expect(text).toContain("crumbs_outbox_parked_total 2");
    expect(text).toContain("crumbs_outbox_parked 1");
  });

  it("adds the process and runtime series, and the registries it was given", async () => {
    const runner = new Registry();
    new Counter({ name: "crumbs_runner_triggers_total", help: "t", registers: [runner] }).inc();
    const text = await new Metrics([runner]).render({});
    for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "nodejs_heap_size_used_bytes", "nodejs_gc_duration_seconds"]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
    expect(text).toContain("crumbs_runner_triggers_total 1");
  });

  it("keeps two instances apart", async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.addPublished([1, 1, 1, 1, 1]);
    expect(await b.render({})).toContain("crumbs_outbox_published_total 0");
  });
});
