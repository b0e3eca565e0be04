import { describe, expect, it } from "vitest";
import { Metrics } from "./metrics.ts";

describe("Metrics", () => {
  it("renders counters, a cumulative histogram and gauges in Prometheus text", () => {
    const m = new Metrics();
    m.observeRequest("GET", "/v1/breadcrumbs/:id", 200, 0.003);
    m.observeRequest("GET", "/v1/breadcrumbs/:id", 200, 0.2);
    m.addPublished(3);
    m.addParked(2);
    const text = m.render({ outboxBacklog: 7, outboxParked: 1 });
    expect(text).toContain('crumbs_http_requests_total{method="GET",route="/v1/breadcrumbs/:id",status="200"} 2');
    expect(text).toContain('le="0.005"} 1');
    expect(text).toContain('le="0.25"} 2');
    expect(text).toContain('le="+Inf"} 2');
    expect(text).toContain("crumbs_outbox_published_total 3");
    expect(text).toContain("crumbs_outbox_backlog 7");
    expect(text).toContain("crumbs_outbox_parked_total 2");
    expect(text).toContain("crumbs_outbox_parked 1");
  });
});
