import { ApiResponseError, type Breadcrumb, type BreadcrumbEvent } from "@crumbs/agent-sdk";
import type { Logger } from "@crumbs/telemetry";

export interface DefEventDeps {
  registry: { remove(id: string): Promise<void>; upsert(def: Breadcrumb): Promise<void> };
  /** Reads the definition's latest version (the API decides what this token may see). */
  get(id: string): Promise<Breadcrumb>;
  log: Pick<Logger, "warn">;
  closing(): boolean;
}

/**
 * What the runner does with an agent.def.v1 event. An agent goes only on its own delete event:
 * a read that fails (a 404 from a replica behind or an answer confused by a failed statement, a
 * 5xx, a timeout) says nothing about the definition, so the agent keeps running as it was. A
 * definition really deleted meanwhile has its delete event right behind this one. Other errors
 * go to the caller, which resyncs from the full list.
 */
export function followDefinitions(deps: DefEventDeps): (event: BreadcrumbEvent) => Promise<void> {
  return async (event) => {
    if (deps.closing()) return;
    if (event.type === "breadcrumb.deleted") return deps.registry.remove(event.id);
    let def: Breadcrumb;
    try {
      def = await deps.get(event.id);
    } catch (err) {
      if (err instanceof ApiResponseError && err.status === 404) {
        deps.log.warn({ id: event.id, status: 404 }, "agent definition not readable after its event; the agent is kept as it was");
        return;
      }
      throw err;
    }
    await deps.registry.upsert(def);
  };
}
