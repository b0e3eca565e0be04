import type { Breadcrumb, CrumbsHttp } from "@crumbs/agent-sdk";
import { LlmViewError, llmHintsSchema, renderLlmView, type LlmHints } from "@crumbs/schemas";
import { latestMatching } from "../latest-matching.ts";

// The llm view of a breadcrumb the runner already holds (the trigger of an event, a context or a
// history item from a list), rendered here by the shared engine the API's `?view=llm` runs, with
// the owner's schema.def.v1 hints, instead of a GET per breadcrumb. That GET was one of the five
// API calls of a trigger; under load the API is what the runner waits for.

/** As long as the API caches a schema.def's hints: a changed definition counts within 2 s there and here. */
export const SCHEMA_HINTS_TTL_MS = 2_000;
const CACHE_MAX = 1_000;

export class LlmViews {
  private readonly hints = new Map<string, { at: number; hints: Promise<LlmHints | undefined> }>();

  constructor(
    private readonly http: CrumbsHttp,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The view `GET /v1/breadcrumbs/{id}?view=llm` answers for this version of `b`. Throws
   * LlmViewError where that answers 422 (fails closed: never the raw context).
   */
  async of(b: Breadcrumb): Promise<Record<string, unknown>> {
    return renderLlmView(b, await this.schemaDefHints(b.owner, b.schema_name));
  }

  /** The `llm_hints` of the owner's newest schema.def.v1 that `defines` this schema. */
  private schemaDefHints(owner: string, schemaName: string): Promise<LlmHints | undefined> {
    const key = `${owner}\u0000${schemaName}`;
    const hit = this.hints.get(key);
    if (hit && this.now() - hit.at < SCHEMA_HINTS_TTL_MS) return hit.hints;
    const hints = this.lookup(schemaName);
    // A failed lookup is not remembered: the next view asks again.
    hints.catch(() => this.hints.get(key)?.hints === hints && this.hints.delete(key));
    if (this.hints.size >= CACHE_MAX) this.hints.clear();
    this.hints.set(key, { at: this.now(), hints });
    return hints;
  }

  private async lookup(schemaName: string): Promise<LlmHints | undefined> {
    const def = await latestMatching(this.http, { schema_name: "schema.def.v1", context_match: [{ path: "$.defines", op: "eq", value: schemaName }] });
    const raw = def?.context.llm_hints;
    if (!def || raw === undefined || raw === null) return undefined;
    const parsed = llmHintsSchema.safeParse(raw);
    if (!parsed.success) throw new LlmViewError(`the llm_hints of schema.def.v1 ${def.id} are invalid`);
    return parsed.data;
  }
}
