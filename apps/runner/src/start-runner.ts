import {
  ApiResponseError,
  CrumbsHttp,
  handleEvents,
  subscribeEvents,
  type Breadcrumb,
  type BreadcrumbEvent,
  type EventSubscription,
} from "@crumbs/agent-sdk";
import type { Agent } from "./agent-def.ts";
import { AgentRegistry } from "./agent-registry.ts";
import { ConfigError, type RunnerConfig } from "./config.ts";
import { jsonLogger, type Logger } from "./log.ts";
import { keepHealthFile } from "./health-file.ts";
import { connectRunnerNats } from "./nats-connect.ts";
import { handleActionResult } from "./observe.ts";
import { handleCancel } from "./cancel.ts";
import { TASK_CANCEL_SCHEMA } from "@crumbs/schemas";
import type { ThinkDeps } from "./think.ts";

export interface RunnerOptions extends RunnerConfig {
  fetch?: typeof fetch;
  log?: Logger;
  /** How often the hosted agents are re-checked against the API, as a safety net for missed events. */
  resyncMs?: number;
}

export interface Runner {
  /** The agents running now. */
  agents(): Agent[];
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
    throw new ConfigError("CRUMBS_TOKEN is required: the bearer token the runner writes with", [
      "CRUMBS_TOKEN",
    ]);
  const log = opts.log ?? jsonLogger;
  const fetchFn = opts.fetch ?? globalThis.fetch;
  const http = new CrumbsHttp({ url: opts.crumbsUrl, token: opts.token, fetch: fetchFn });
  const deps: ThinkDeps = {
    http,
    fetch: fetchFn,
    endpoints: opts,
    modelTimeoutMs: opts.modelTimeoutMs ?? 60_000,
    maxSteps: opts.maxSteps ?? 8,
    log,
  };
  const ackWaitMs = opts.ackWaitMs ?? 10_000;
  const nc = await connectRunnerNats(opts);
  const registry = new AgentRegistry(nc, deps, { ackWaitMs, maxDeliver: 5 });
  const subs: EventSubscription[] = [];
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
      .catch((err: unknown) => log.warn("agent resync failed", { error: String(err) }))
      .finally(() => (resyncing = undefined));
    return resyncing;
  };

  const onDefEvent = async (event: BreadcrumbEvent) => {
    if (closing) return;
    if (event.type === "breadcrumb.deleted") return registry.remove(event.id);
    try {
      // The API decides what this token may see and what the latest version is.
      await registry.upsert(await http.get(event.id));
    } catch (err) {
      if (err instanceof ApiResponseError && err.status === 404) return registry.remove(event.id);
      throw err;
    }
  };

  try {
    // Follow first, then list: a definition written in between is seen by one or the other.
    const onDefError = (err: unknown) => {
      log.warn("agent definition event failed; resyncing", { error: String(err) });
      void resync();
    };
    subs.push(handleEvents(await subscribeEvents(nc, { schema_name: "agent.def.v1" }, { http, onError: onDefError }), onDefEvent, { onError: onDefError }));
    await registry.sync(await listDefs());
    const onResultError = (err: unknown, event: { id: string } | undefined) =>
      log.error("action result failed", { result: event?.id, error: String(err) });
    subs.push(
      handleEvents(
        await subscribeEvents(nc, { schema_name: "browser.action.result.v1" }, { queue: RESULTS_CONSUMER, http, types: ["created"], ackWaitMs, onError: onResultError }),
        (e) => handleActionResult(deps, (o, a) => registry.find(o, a), e),
        { onError: onResultError },
      ),
    );
    const onCancelError = (err: unknown, event: { id: string } | undefined) =>
      log.error("task cancel failed", { cancel: event?.id, error: String(err) });
    subs.push(
      handleEvents(
        await subscribeEvents(nc, { schema_name: TASK_CANCEL_SCHEMA }, { queue: CANCELS_CONSUMER, types: ["created"], ackWaitMs, onError: onCancelError }),
        (e) => handleCancel(http, (o, a) => registry.find(o, a), e),
        { onError: onCancelError },
      ),
    );
  } catch (err) {
    await Promise.all(subs.map((s) => s.stop()));
    await registry.stop();
    await nc.close();
    throw err;
  }
  const timer = setInterval(() => void resync(), opts.resyncMs ?? 30_000);
  timer.unref();
  const stopHealth = opts.healthFile ? keepHealthFile(nc, opts.healthFile) : () => {};
  log.info("runner started", { agents: registry.list().map((a) => a.def.agent_id) });

  return {
    agents: () => registry.list(),
    async close() {
      closing = true;
      clearInterval(timer);
      stopHealth();
      await resyncing;
      await Promise.all(subs.map((s) => s.stop()));
      await registry.stop();
      await nc.drain().catch(() => nc.close());
    },
  };
}
