import type { Breadcrumb } from "@crumbs/agent-sdk";
import type { NatsConnection } from "nats";
import { parseAgentDef, type Agent } from "./agent-def.ts";
import { AgentWorker, type WorkerOptions } from "./agent-worker.ts";
import type { StepDeps } from "./run-step.ts";

/** The agents this runner hosts, keyed by their agent.def.v1 breadcrumb id. */
export class AgentRegistry {
  private readonly workers = new Map<string, AgentWorker>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly deps: StepDeps,
    private readonly opts: WorkerOptions,
    /** After every change of the hosted set (the page-interest lease follows it). */
    private readonly onChange: (agents: Agent[]) => void = () => {},
  ) {}

  list(): Agent[] {
    return [...this.workers.values()].map((w) => w.agent);
  }

  /** Each hosted agent's durable consumer (for the pending gauge). */
  consumers(): { agent: string; consumer: string }[] {
    return [...this.workers.values()].flatMap((w) => (w.consumerName ? [{ agent: w.agent.def.agent_id, consumer: w.consumerName }] : []));
  }

  worker(defId: string): AgentWorker | undefined {
    return this.workers.get(defId);
  }

  find(owner: string, agentId: string): Agent | undefined {
    return this.list().find((a) => a.owner === owner && a.def.agent_id === agentId);
  }

  /** A definition was created or changed; older versions than the loaded one are ignored. */
  async upsert(b: Breadcrumb): Promise<void> {
    const existing = this.workers.get(b.id);
    if (existing && existing.agent.defVersion >= b.version) return;
    const parsed = parseAgentDef(b);
    if (!parsed.ok) {
      this.deps.log.warn({ id: b.id, error: parsed.error }, "ignoring invalid agent definition");
      await this.remove(b.id);
      return;
    }
    const clash = this.find(b.owner, parsed.agent.def.agent_id);
    if (clash && clash.defId !== b.id) {
      const fields = { agent: parsed.agent.def.agent_id, ids: [clash.defId, b.id] };
      this.deps.log.warn(fields, "two definitions share an agent_id; both run on one consumer");
    }
    const worker = existing ?? new AgentWorker(this.nc, this.deps, parsed.agent, this.opts);
    this.workers.set(b.id, worker);
    await worker.apply(parsed.agent);
    this.onChange(this.list());
  }

  async remove(defId: string): Promise<void> {
    const worker = this.workers.get(defId);
    if (!worker) return;
    this.workers.delete(defId);
    await worker.remove();
    this.onChange(this.list());
  }

  /** Make the hosted set equal to these definitions (start-up and periodic resync). */
  async sync(defs: Breadcrumb[]): Promise<void> {
    const ids = new Set(defs.map((d) => d.id));
    for (const id of [...this.workers.keys()]) if (!ids.has(id)) await this.remove(id);
    for (const d of defs) await this.upsert(d);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.workers.clear();
  }
}
