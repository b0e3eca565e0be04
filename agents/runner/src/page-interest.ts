import { InterestLease, newHolderId, Serial, type CrumbsHttp } from "@crumbs/agent-sdk";
import { PAGE_CONTEXT_SCHEMA, selectorCanMatchSchema } from "@crumbs/schemas";
import type { Logger } from "@crumbs/telemetry";
import type { Agent } from "./agent-def.ts";

// The runner's one browser.context.interest.v1 lease: held while it hosts any agent that needs the
// page, so the owner's extension captures it only then (docs/agents.md, "Page context on demand").
// An agent needs the page when one of its selectors, the trigger's or the context it reads
// (context_selectors), can match browser.page.context.v1, or when it runs tasks (skills: the task
// controller plans from the page's pcd).

export function agentNeedsPage(agent: Pick<Agent, "def">): boolean {
  const { subscriptions, context_selectors = [], skills = [] } = agent.def;
  return skills.length > 0 || [...subscriptions.selectors, ...context_selectors].some((s) => selectorCanMatchSchema(s, PAGE_CONTEXT_SCHEMA));
}

export const interestLabel = (n: number) => `runner: ${n} agent${n === 1 ? "" : "s"}`;

export class RunnerInterest {
  private lease: InterestLease | undefined;
  private readonly holderId = newHolderId("runner");
  /** Changes run in order, so a quick unload and load never leave two leases or none. */
  private readonly changes = new Serial();

  constructor(
    private readonly http: Pick<CrumbsHttp, "create" | "patch" | "delete">,
    private readonly log: Logger,
  ) {}

  /** The hosted agents changed: take, relabel or drop the lease. */
  update(agents: readonly Agent[]): Promise<void> {
    const n = agents.filter(agentNeedsPage).length;
    return this.changes.run(async () => {
      if (n === 0) {
        const old = this.lease;
        this.lease = undefined;
        await old?.stop();
        return;
      }
      if (this.lease) return this.lease.relabel(interestLabel(n));
      const onError = (err: unknown) => this.log.warn({ error: String(err) }, "page-interest lease write failed; the next renewal tries again");
      this.lease = new InterestLease(this.http, { holder: { id: this.holderId, label: interestLabel(n) }, onError });
      await this.lease.start().catch(onError);
    });
  }

  /** A clean stop deletes the lease; a crash leaves it to expire. */
  stop(): Promise<void> {
    return this.update([]);
  }
}
