import type { Breadcrumb, CrumbsHttp } from "@crumbs/agent-sdk";
import { LlmViewError } from "@crumbs/schemas";
import type { LlmViews } from "../llm/llm-views.ts";
import type { ReadKind, SessionReads } from "../session-reads.ts";
import { fitHistory } from "./fit.ts";
import { addResults, missingResults, planTurns, renderTurns, requestIdOf, type HistoryTurn, type Plan, type TurnPlan } from "./turns.ts";

// The session's earlier turns, read through the API with bounded work: one page of the session's
// newest breadcrumbs, at most one more page for results a writer did not tag with the session, and
// the llm view of each item of the turns the budget can keep, rendered here from the items read
// (no request per item). A session of 10,000 breadcrumbs costs what one of MEMORY_READ_LIMIT costs.

/** Breadcrumbs of the session read per step (one page, newest first). */
export const MEMORY_READ_LIMIT = 100;
/** Turns kept at most, before the budget decides which are whole, summarised or dropped. */
export const MEMORY_MAX_TURNS = 50;
const TURN_BATCH = 5;
const HISTORY_SCHEMAS = ["chat.message.v1", "agent.response.v1", "browser.action.v1", "browser.action.result.v1"];

export interface HistoryQuery {
  agentId: string;
  session: string;
  /** The task's first trigger as it is now, and the version that started the task. */
  trigger: Breadcrumb;
  root: { id: string; version: number };
  /** The current context breadcrumbs (raw): what they mark secret stays withheld in the history too. */
  contexts: Array<Record<string, unknown>>;
  /** The memory budget in tokens: turns past it are not read. */
  budget: number;
}

/** A session's page of history, read together with other reads of sessions. */
const HISTORY_PAGE: ReadKind = { schemaNames: HISTORY_SCHEMAS, perSession: MEMORY_READ_LIMIT };

export async function readHistory(
  { http, views: llmViews, sessions }: { http: CrumbsHttp; views: LlmViews; sessions: SessionReads },
  q: HistoryQuery,
): Promise<HistoryTurn[]> {
  const items = await sessions.read(HISTORY_PAGE, q.session);
  // History is what was written before the task began: before this version of the trigger.
  const began = q.trigger.version === q.root.version ? q.trigger.updated_at : q.trigger.created_at;
  const plan = planTurns(items, {
    agentId: q.agentId,
    root: q.root,
    cutoff: Date.parse(began),
    maxTurns: MEMORY_MAX_TURNS,
  });
  const missing = missingResults(plan);
  if (missing.length) {
    const more = await http.list({
      selector: {
        schema_name: "browser.action.result.v1",
        context_match: [{ path: "$.request_id", op: "in", value: missing }],
      },
      limit: MEMORY_READ_LIMIT,
    });
    addResults(plan.results, more.items, Date.parse(began));
  }
  // Views newest turn first, a few turns at a time, until the budget drops a turn: an older one
  // would be dropped as well (fitHistory keeps the newest), so its views are never fetched.
  const views = new Map<string, Record<string, unknown>>();
  const current = { triggerId: q.trigger.id, contexts: q.contexts };
  let from = plan.turns.length;
  while (from > 0) {
    const batch = plan.turns.slice(Math.max(0, from - TURN_BATCH), from);
    from -= batch.length;
    for (const [id, view] of await viewsOf(llmViews, batch.flatMap((t) => itemsOf(t, plan)))) views.set(id, view);
    if (fitHistory(renderTurns({ ...plan, turns: plan.turns.slice(from) }, views, current), q.budget).dropped > 0) break;
  }
  return renderTurns({ ...plan, turns: plan.turns.slice(from) }, views, current);
}

function itemsOf(t: TurnPlan, plan: Plan): Breadcrumb[] {
  const items = t.message ? [t.message] : [];
  for (const a of t.actions) {
    items.push(a.b);
    const r = plan.results.get(requestIdOf(a.b));
    if (r) items.push(r);
  }
  return [...items, ...t.answers];
}

/** The llm view of each item; one whose view fails is left out, never read raw. */
async function viewsOf(views: LlmViews, items: Breadcrumb[]): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const b of items) {
    try {
      out.set(b.id, await views.of(b));
    } catch (err) {
      if (!(err instanceof LlmViewError)) throw err;
    }
  }
  return out;
}
