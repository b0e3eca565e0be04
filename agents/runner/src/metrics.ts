import { CrumbsHttp, type Breadcrumb, type CallOptions, type CreateBreadcrumb } from "@crumbs/agent-sdk";
import { STREAM_NAME } from "@crumbs/schemas";
import type { NatsConnection } from "nats";
import { Counter, Gauge, Histogram, Registry } from "@crumbs/telemetry";

/**
 * The runner's series (README "Operations"). Labels are bounded: outcomes, error kinds, providers,
 * schema names of what the runner writes and agent ids of the hosted definitions; never a trigger
 * id or a model's text.
 */
export class RunnerMetrics {
  readonly triggers: Counter<"outcome">;
  readonly modelCalls: Histogram<"provider" | "outcome">;
  readonly modelErrors: Counter<"provider" | "reason">;
  readonly outputs: Counter<"schema_name">;
  readonly pending: Gauge<"agent" | "consumer">;
  private consumers: { nc: NatsConnection; list: () => { agent: string; consumer: string }[] } | undefined;

  constructor(readonly registry: Registry) {
    const registers = [registry];
    const sampled = () => this.consumers;
    this.triggers = new Counter({
      name: "crumbs_runner_triggers_total",
      help: "Events that started an agent task, by outcome (ok: handled and acked; error: will be redelivered).",
      labelNames: ["outcome"],
      registers,
    });
    this.modelCalls = new Histogram({
      name: "crumbs_runner_model_call_duration_seconds",
      help: "Model calls until the endpoint answered (the whole completion: requests are not streamed).",
      labelNames: ["provider", "outcome"],
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
      registers,
    });
    this.modelErrors = new Counter({
      name: "crumbs_runner_model_errors_total",
      help: "Model calls that failed: unreachable, timeout, or an HTTP error status (http_4xx, http_5xx).",
      labelNames: ["provider", "reason"],
      registers,
    });
    this.outputs = new Counter({
      name: "crumbs_runner_outputs_written_total",
      help: "Breadcrumbs the runner wrote (answers, browser actions, refusals), by schema.",
      labelNames: ["schema_name"],
      registers,
    });
    this.pending = new Gauge({
      name: "crumbs_runner_consumer_pending",
      help: "Events waiting in an agent's durable consumer (num_pending), sampled at each scrape.",
      labelNames: ["agent", "consumer"],
      registers,
      // Sampled when scraped, not on a timer: no JetStream request when nobody looks.
      async collect() {
        this.reset();
        const source = sampled();
        if (!source || source.nc.isClosed()) return;
        const jsm = await source.nc.jetstreamManager();
        await Promise.all(
          source.list().map(async ({ agent, consumer }) => {
            const info = await jsm.consumers.info(STREAM_NAME, consumer).catch(() => undefined);
            if (info) this.set({ agent, consumer }, info.num_pending);
          }),
        );
      },
    });
  }

  /** The durable consumers whose `num_pending` each scrape samples. */
  sampleConsumers(nc: NatsConnection, list: () => { agent: string; consumer: string }[]): void {
    this.consumers = { nc, list };
  }

  /**
   * The model transport, timed: every request through it is a model call (run-step.ts sends nothing
   * else through `StepDeps.fetch`). `providers` maps a base URL to its label.
   */
  timedModelFetch(fetchFn: typeof fetch, providers: { baseUrl: string | undefined; provider: string }[]): typeof fetch {
    const providerOf = (url: string) => providers.find((p) => p.baseUrl && url.startsWith(p.baseUrl))?.provider ?? "other";
    return async (input, init) => {
      const provider = providerOf(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      const end = this.modelCalls.startTimer({ provider });
      try {
        const res = await fetchFn(input, init);
        const outcome = res.ok ? "ok" : `http_${String(res.status)[0]}xx`;
        end({ outcome });
        if (!res.ok) this.modelErrors.inc({ provider, reason: outcome });
        return res;
      } catch (err) {
        const reason = init?.signal?.aborted ? "timeout" : "unreachable";
        end({ outcome: reason });
        this.modelErrors.inc({ provider, reason });
        throw err;
      }
    };
  }
}

/** The runner's HTTP client, counting what it writes. */
export class CountingHttp extends CrumbsHttp {
  constructor(
    opts: ConstructorParameters<typeof CrumbsHttp>[0],
    private readonly metrics: RunnerMetrics,
  ) {
    super(opts);
  }

  override async create<S extends string>(body: CreateBreadcrumb<S>, opts: CallOptions & { idempotencyKey?: string } = {}): Promise<Breadcrumb<S>> {
    const written = await super.create(body, opts);
    this.metrics.outputs.inc({ schema_name: written.schema_name });
    return written;
  }
}
