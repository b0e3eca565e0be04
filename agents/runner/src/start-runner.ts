import {
  ApiResponseError,
  CrumbsHttp,
  handleEvents,
  subscribeEvents,
  type Breadcrumb,
  type EventSubscription,
} from "@crumbs/agent-sdk";
import type { Agent } from "./agent-def.ts";
import { AgentRegistry } from "./agent-registry.ts";
import { followDefinitions } from "./def-events.ts";
import { ConfigError, DEFAULT_CONCURRENCY, type RunnerConfig } from "./config.ts";
import { keepHealthFile } from "./health-file.ts";
import { OPENAI_BASE_URL, OPENROUTER_BASE_URL } from "./llm/model-route.ts";
import { CountingHttp, RunnerMetrics } from "./metrics.ts";
import { defaultLogger, Registry, serveMetrics, StartupError, unreachableError, type Logger, type MetricsServer } from "@crumbs/telemetry";
import { connectRunnerNats } from "./nats-connect.ts";
import { LlmViews } from "./llm/llm-views.ts";
import { SessionReads } from "./session-reads.ts";
import { handleActionResult } from "./action-result.ts";
import { handleCancel } from "./cancel.ts";
import { TASK_CANCEL_SCHEMA } from "@crumbs/schemas";
import type { StepDeps } from "./run-step.ts";
import { DEFAULT_MEMORY_TOKENS } from "./memory/fit.ts";
import { RunnerInterest } from "./page-interest.ts";

export interface RunnerOptions extends RunnerConfig {
  fetch?: typeof fetch;
  /** The process's logger (`crumbs start` shares one with the API); default: @crumbs/telemetry's, named "runner". */
  logger?: Logger;
  /** How often the hosted agents are re-checked against the API, as a safety net for missed events. */
  resyncMs?: number;
  /** Where the runner's series go; `crumbs start` passes one the API's /metrics also renders. */
  metricsRegistry?: Registry;
  /** The task controller's clock ("last month" is counted from it); tests pass a fixed one. */
  now?: () => Date;
}

export interface Runner {
  /** The agents running now. */
  agents(): Agent[];
  /** GET /metrics of this runner when `metricsPort` was set. */
  metricsUrl: string | undefined;
  /** Stop taking events, let running handlers finish (and ack), disconnect. */
  close(): Promise<void>;
}

const RESULTS_CONSUMER = "crumbs_runner_action_results";
const CANCELS_CONSUMER = "crumbs_runner_task_cancels";

/**
 * Host every agent.def.v1 the token can see. Definitions are loaded at start
 * and followed live; each agent runs on a durable consumer shared by all
 * runner replicas; browser action results continue the tasks that asked for them.
 */
export async function startRunner(opts: RunnerOptions): Promise<Runner> {
  if (!opts.token)
    throw new ConfigError({ variable: "CRUMBS_TOKEN", message: "required: the bearer token the runner writes with" });
  const log = opts.logger ?? defaultLogger().child({ name: "runner" });
  const fetchFn = opts.fetch ?? globalThis.fetch;
  const metrics = new RunnerMetrics(opts.metricsRegistry ?? new Registry());
  const http = new CountingHttp({ url: opts.crumbsUrl, token: opts.token, fetch: fetchFn }, metrics);
  const deps: StepDeps = {
    http,
    views: new LlmViews(http),
    sessions: new SessionReads(http),
    fetch: metrics.timedModelFetch(fetchFn, [
      { baseUrl: opts.openrouterBaseUrl ?? OPENROUTER_BASE_URL, provider: "openrouter" },
      { baseUrl: opts.openaiBaseUrl ?? OPENAI_BASE_URL, provider: "openai" },
    ]),
    endpoints: opts,
    modelTimeoutMs: opts.modelTimeoutMs ?? 60_000,
    maxSteps: opts.maxSteps ?? 8,
    memoryTokens: opts.memoryTokens ?? DEFAULT_MEMORY_TOKENS,
    log,
    ...(opts.now ? { now: opts.now } : {}),
  };
  const ackWaitMs = opts.ackWaitMs ?? 10_000;
  const nc = await connectRunnerNats(opts);
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  // Its own client: a lease is no output of an agent, so it stays out of the outputs counter.
  const interest = new RunnerInterest(new CrumbsHttp({ url: opts.crumbsUrl, token: opts.token, fetch: fetchFn }), log);
  const registry = new AgentRegistry(
    nc,
    deps,
    { ackWaitMs, maxDeliver: 5, concurrency, onTrigger: (outcome) => metrics.triggers.inc({ outcome }) },
    (agents) => void interest.update(agents),
  );
  metrics.sampleConsumers(nc, () => registry.consumers());
  const subs: EventSubscription[] = [];
  let metricsServer: MetricsServer | undefined;
  let closing = false;

  const listDefs = async (): Promise<Breadcrumb[]> => {
    const all: Breadcrumb[] = [];
    for await (const b of http.listAll({ schema_name: "agent.def.v1" })) all.push(b);
    return all;
  };
  let resyncing: Promise<void> | undefined;
  const resync = () => {
    resyncing ??= listDefs()
      .then((defs) => (closing ? undefined : registry.sync(defs)))
      .catch((err: unknown) => log.warn({ error: String(err) }, "agent resync failed"))
      .finally(() => (resyncing = undefined));
    return resyncing;
  };

  const onDefEvent = followDefinitions({ registry, get: (id) => http.get(id), log, closing: () => closing });

  try {
    // Follow first, then list: a definition written in between is seen by one or the other.
    const onDefError = (err: unknown) => {
      log.warn({ error: String(err) }, "agent definition event failed; resyncing");
      void resync();
    };
    subs.push(handleEvents(await subscribeEvents(nc, { schema_name: "agent.def.v1" }, { http, onError: onDefError }), onDefEvent, { onError: onDefError }));
    await registry.sync(await listDefs().catch((err: unknown) => {
      throw apiStartupError(opts.crumbsUrl, err);
    }));
    const onResultError = (err: unknown, event: { id: string } | undefined) =>
      log.error({ result: event?.id, error: String(err) }, "action result failed");
    subs.push(
      handleEvents(
        await subscribeEvents(nc, { schema_name: "browser.action.result.v1" }, { queue: RESULTS_CONSUMER, http, types: ["created"], ackWaitMs, onError: onResultError }),
        (e) => handleActionResult(deps, (o, a) => registry.find(o, a), e),
        { onError: onResultError },
      ),
    );
    const onCancelError = (err: unknown, event: { id: string } | undefined) =>
      log.error({ cancel: event?.id, error: String(err) }, "task cancel failed");
    subs.push(
      handleEvents(
        await subscribeEvents(nc, { schema_name: TASK_CANCEL_SCHEMA }, { queue: CANCELS_CONSUMER, types: ["created"], ackWaitMs, onError: onCancelError }),
        (e) => handleCancel(http, (o, a) => registry.find(o, a), e),
        { onError: onCancelError },
      ),
    );
    if (opts.metricsPort !== undefined) {
      metricsServer = await serveMetrics({ port: opts.metricsPort, host: opts.metricsHost ?? "0.0.0.0", registries: [metrics.registry] }).catch(
        (err: unknown) => {
          throw metricsPortError(opts.metricsPort ?? 0, err);
        },
      );
    }
  } catch (err) {
    await Promise.all(subs.map((s) => s.stop()));
    await registry.stop();
    await interest.stop();
    await nc.close();
    throw err;
  }
  const timer = setInterval(() => void resync(), opts.resyncMs ?? 30_000);
  timer.unref();
  const stopHealth = opts.healthFile ? keepHealthFile(nc, opts.healthFile) : () => {};
  log.info({ agents: registry.list().map((a) => a.def.agent_id), metrics: metricsServer?.url }, "runner started");

  return {
    agents: () => registry.list(),
    metricsUrl: metricsServer?.url,
    async close() {
      closing = true;
      clearInterval(timer);
      stopHealth();
      await metricsServer?.close();
      await resyncing;
      await Promise.all(subs.map((s) => s.stop()));
      await registry.stop();
      await interest.stop();
      await nc.drain().catch(() => nc.close());
    },
  };
}

/** The first request to the API failed: say which variable points where, and what to do. */
function apiStartupError(url: string, err: unknown): unknown {
  if (err instanceof ApiResponseError && err.status === 401) {
    return new StartupError("unauthorized", "CRUMBS_TOKEN", `the crumbs API at ${url} refused CRUMBS_TOKEN (401): set CRUMBS_TOKEN to a token of that API`, {
      cause: err,
    });
  }
  const fix = "Start the API (`crumbs api`, or `crumbs start` for everything) or set CRUMBS_URL.";
  return unreachableError({ code: "api_unreachable", service: "the crumbs API", target: url, variable: "CRUMBS_URL", fix }, err) ?? err;
}

function metricsPortError(port: number, err: unknown): unknown {
  if ((err as { code?: unknown }).code !== "EADDRINUSE") return err;
  return new StartupError(
    "port_in_use",
    "RUNNER_METRICS_PORT",
    `cannot serve /metrics on port ${port} (RUNNER_METRICS_PORT): the port is in use by another process. Set RUNNER_METRICS_PORT to a free port, or unset it.`,
    { cause: err },
  );
}
