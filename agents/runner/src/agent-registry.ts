import type { Breadcrumb } from "@crumbs/agent-sdk";
import type { NatsConnection } from "nats";
import { parseAgentDef, type Agent } from "./agent-def.ts";
import { AgentWorker, type WorkerOptions } from "./agent-worker.ts";
import type { StepDeps } from "./run-step.ts";

/** Agents started at once by `sync`. */
const SYNC_CONCURRENCY = 16;

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
    if (await this.load(b)) this.onChange(this.list());
  }

  /** `upsert` without telling `onChange`; true when the hosted set changed. */
  private async load(b: Breadcrumb): Promise<boolean> {
    const existing = this.workers.get(b.id);
    if (existing && existing.agent.defVersion >= b.version) return false;
    const parsed = parseAgentDef(b);
    if (!parsed.ok) {
      this.deps.log.warn({ id: b.id, error: parsed.error }, "ignoring invalid agent definition");
      return this.unload(b.id);
    }
    const clash = this.find(b.owner, parsed.agent.def.agent_id);
    if (clash && clash.defId !== b.id) {
      const fields = { agent: parsed.agent.def.agent_id, ids: [clash.defId, b.id] };
      this.deps.log.warn(fields, "two definitions share an agent_id; both run on one consumer");
    }
    const worker = existing ?? new AgentWorker(this.nc, this.deps, parsed.agent, this.opts);
    this.workers.set(b.id, worker);
    await worker.apply(parsed.agent);
    return true;
  }

  async remove(defId: string): Promise<void> {
    if (await this.unload(defId)) this.onChange(this.list());
  }

  private async unload(defId: string): Promise<boolean> {
    const worker = this.workers.get(defId);
    if (!worker) return false;
    this.workers.delete(defId);
    await worker.remove();
    return true;
  }

  /**
   * Make the hosted set equal to these definitions (start-up and periodic resync), starting up to
   * SYNC_CONCURRENCY agents at once and telling `onChange` once at the end: each start is a few
   * JetStream API round trips, and one at a time 1,000 definitions took 3.6 s to be ready.
   */
  async sync(defs: Breadcrumb[]): Promise<void> {
    const ids = new Set(defs.map((d) => d.id));
    let changed = false;
    const gone = [...this.workers.keys()].filter((id) => !ids.has(id));
    const work = [...gone.map((id) => () => this.unload(id)), ...defs.map((d) => () => this.load(d))];
    const failures: unknown[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(SYNC_CONCURRENCY, work.length) }, async () => {
        while (next < work.length) {
          const step = work[next++]!;
          // One definition that cannot start does not keep the others from starting.
          try {
            if (await step()) changed = true;
          } catch (err) {
            failures.push(err);
          }
        }
      }),
    );
    if (changed) this.onChange(this.list());
    if (failures.length) throw failures[0];
  }

  async stop(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.workers.clear();
  }
}
