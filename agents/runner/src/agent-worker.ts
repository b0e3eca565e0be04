import { filterSubjectFor, handleEvents, Serial, sessionOf, subscribeEvents, type BreadcrumbEvent, type EventSubscription } from "@crumbs/agent-sdk";
import { STREAM_NAME } from "@crumbs/schemas";
import type { NatsConnection } from "nats";
import { consumerNameFor, type Agent } from "./agent-def.ts";
import { handleTrigger } from "./handle-trigger.ts";
import { routeModel } from "./llm/model-route.ts";
import type { StepDeps } from "./run-step.ts";

export interface WorkerOptions {
  ackWaitMs: number;
  maxDeliver: number;
  /** Triggers handled at once; one session's one after another, in stream order. */
  concurrency: number;
  /** After each trigger: handled (and acked), or failed (redelivered). */
  onTrigger?: (outcome: "ok" | "error") => void;
}

/**
 * Runs one agent in this process: a subscription on the agent's durable
 * consumer, which every runner replica shares, so each trigger is handled
 * once across replicas. A changed definition is applied in place; a selector
 * that narrows to a new subject moves the agent to a new consumer.
 */
export class AgentWorker {
  private current: Agent;
  private sub: EventSubscription | undefined;
  private consumer: string | undefined;
  private selectorsKey: string | undefined;
  /** Definition changes and stops run in order, so a consumer is never created and deleted at once. */
  private readonly changes = new Serial();

  constructor(
    private readonly nc: NatsConnection,
    private readonly deps: StepDeps,
    agent: Agent,
    private readonly opts: WorkerOptions,
  ) {
    this.current = agent;
  }

  get agent(): Agent {
    return this.current;
  }

  get consumerName(): string | undefined {
    return this.consumer;
  }

  /** Start, or switch to a new version of the definition. Calls are applied one after another. */
  apply(agent: Agent): Promise<void> {
    return this.changes.run(async () => {
      this.current = agent;
      const selectors = agent.def.subscriptions.selectors;
      const filterSubject = filterSubjectFor(selectors, {
        owner: agent.owner,
        types: ["created", "updated"],
      });
      const name = consumerNameFor(agent, filterSubject);
      const key = JSON.stringify(selectors);
      if (this.sub && name === this.consumer && key === this.selectorsKey) return;
      const old = { sub: this.sub, name: this.consumer };
      this.sub = undefined;
      await old.sub?.stop();
      const onError = (err: unknown, event: { id: string } | undefined) =>
        this.deps.log.error({ agent: agent.def.agent_id, trigger: event?.id, error: String(err) }, "trigger failed, will be redelivered");
      const onTrigger = async (event: BreadcrumbEvent) => {
        try {
          await handleTrigger(this.deps, this.current, event);
        } catch (err) {
          this.opts.onTrigger?.("error");
          throw err;
        }
        this.opts.onTrigger?.("ok");
      };
      this.sub = handleEvents(
        await subscribeEvents(this.nc, selectors, {
          durable: name,
          filterSubject,
          http: this.deps.http,
          // A new consumer starts where this version of the definition took effect.
          deliver: { since: agent.updatedAt },
          ackWaitMs: this.opts.ackWaitMs,
          maxDeliver: this.opts.maxDeliver,
          onError,
        }),
        onTrigger,
        { onError, concurrency: this.opts.concurrency, orderBy: conversationOf },
      );
      this.consumer = name;
      this.selectorsKey = key;
      if (old.name && old.name !== name) await this.deleteConsumer(old.name);
      this.deps.log.info({ agent: agent.def.agent_id, consumer: name, subject: filterSubject }, "agent running");
      // Said once here, not only in each answer: whoever runs the runner reads its log.
      const route = routeModel(agent.def.model, this.deps.endpoints);
      if (!route.ok) this.deps.log.warn({ agent: agent.def.agent_id, reason: route.reason }, "agent cannot answer until its model is configured");
    });
  }

  /** The definition was deleted: stop and remove the consumer. */
  remove(): Promise<void> {
    return this.changes.run(async () => {
      await this.sub?.stop();
      this.sub = undefined;
      if (this.consumer) await this.deleteConsumer(this.consumer);
      this.deps.log.info({ agent: this.current.def.agent_id }, "agent stopped");
    });
  }

  /** Stop this process's part without touching the shared consumer (shutdown). */
  stop(): Promise<void> {
    return this.changes.run(async () => {
      await this.sub?.stop();
      this.sub = undefined;
    });
  }

  private async deleteConsumer(name: string): Promise<void> {
    const jsm = await this.nc.jetstreamManager();
    // Every replica tries; the first one wins and the others find it gone.
    await jsm.consumers.delete(STREAM_NAME, name).catch(() => false);
  }
}

/**
 * What must be handled in order: a session's triggers, whose memory reads the earlier ones' answers.
 * Triggers without a session share the "default" one their answers are written to.
 */
function conversationOf(event: BreadcrumbEvent): string {
  return sessionOf(event.breadcrumb) ?? "default";
}
