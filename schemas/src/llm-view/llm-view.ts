import type { Breadcrumb } from "../contract/breadcrumb.ts";
import { BudgetExceededError, createWorkBudget, type WorkBudget } from "../budget.ts";
import { builtinHintsFor } from "./default-hints.ts";
import { CrumbsError, InvalidLlmHintsError, issuesFrom, LlmViewError } from "../contract/errors.ts";
import { isPlainObject, setOwn } from "../json-values.ts";
import { mergeHints } from "./llm-hints-merge.ts";
import { llmHintsSchema, type LlmHints } from "./llm-hints-schema.ts";
import { compileRule, type TemplateData } from "./llm-rules.ts";
import { buildPathTrie, type PathTrie } from "./path-trie.ts";

// The view (schemas/README.md, "llm_hints"):
//   1. hints = merge(built-in default, schema.def hints, context.llm_hints, top-level llm_hints);
//   2. every transform runs on {context (without llm_hints), title, tags, schema_name, id, version};
//   3. merge mode: the context's fields plus the outputs (outputs win a clash); replace: outputs only.
//      When the merged hints have no transform and no mode there is nothing to replace the context
//      with, so the view is the context (then include/exclude) rather than an empty object;
//   4. include keeps only the named context paths (the outputs always stay);
//   5. exclude removes dotted paths from everything, last.
// Any failure throws LlmViewError: the raw context is never returned instead (fail closed).
// The view is a fresh object; excluded subtrees are never even copied.
//
// Work is bounded: the view has VIEW_UNITS (charged to the caller's budget too, when given), its
// transforms TRANSFORMS_UNITS of it together and each at most TRANSFORM_UNITS. A transform that runs out becomes an error entry
// `{error: "budget_exceeded", message}` under its output name, so one runaway template costs the
// reader that one output; the others still render. Running out of the caller's budget (a whole
// request's) throws BudgetExceededError instead.

export type LlmViewInput = Pick<Breadcrumb, "schema_name" | "title" | "tags" | "context"> &
  Partial<Pick<Breadcrumb, "id" | "version" | "llm_hints">>;

const MAX_VIEW_DEPTH = 256;
/** Work units of one breadcrumb's view (all transforms, the copy of the context). */
export const VIEW_UNITS = 300_000;
/** Work units of all transforms of one view together, and of one transform. */
export const TRANSFORMS_UNITS = 100_000;
export const TRANSFORM_UNITS = 50_000;
/**
 * Wall-clock caps of the transforms of one view together and of one transform: units are
 * calibrated on an idle machine, and on a loaded one the same units take several times longer.
 * Past them an output is an error entry as well, so a view never holds the thread for long.
 */
export const TRANSFORMS_DEADLINE_MS = 30;
export const TRANSFORM_DEADLINE_MS = 15;
const SCHEMA_DEF = "schema.def.v1";

/** Hints a breadcrumb is viewed with. A schema.def.v1's own context.llm_hints describe another schema. */
export function hintsForBreadcrumb(b: Pick<LlmViewInput, "schema_name" | "context" | "llm_hints">, schemaDefHints?: LlmHints): LlmHints {
  let contextHints: LlmHints | undefined;
  const raw = b.schema_name === SCHEMA_DEF ? undefined : (b.context as Record<string, unknown>).llm_hints;
  if (raw !== undefined && raw !== null) {
    const parsed = llmHintsSchema.safeParse(raw);
    if (!parsed.success) {
      throw new InvalidLlmHintsError("context.llm_hints is invalid", { issues: issuesFrom(parsed.error.issues, ["context", "llm_hints"]) });
    }
    contextHints = parsed.data;
  }
  return mergeHints([builtinHintsFor(b.schema_name), schemaDefHints, contextHints, b.llm_hints]);
}

function copyExcluding(value: unknown, exclude: PathTrie | undefined, depth: number, budget: WorkBudget): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_VIEW_DEPTH) throw new LlmViewError(`the view is nested deeper than ${MAX_VIEW_DEPTH} levels`);
  budget.spend();
  if (Array.isArray(value)) return value.map((v) => copyExcluding(v, exclude, depth + 1, budget));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = exclude?.children.get(key);
    if (child?.terminal) continue;
    setOwn(out, key, copyExcluding((value as Record<string, unknown>)[key], child, depth + 1, budget));
  }
  return out;
}

/** The parts of `value` named by the trie; undefined when none of them exists. */
function pick(value: unknown, node: PathTrie): unknown {
  if (node.terminal) return value;
  if (Array.isArray(value)) {
    const items = value.map((v) => pick(v, node)).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (!isPlainObject(value)) return undefined;
  let out: Record<string, unknown> | undefined;
  for (const [key, child] of node.children) {
    if (!Object.hasOwn(value, key)) continue;
    const picked = pick(value[key], child);
    if (picked === undefined) continue;
    out ??= {};
    setOwn(out, key, picked);
  }
  return out;
}

function viewOf(b: LlmViewInput, schemaDefHints: LlmHints | undefined, caller: WorkBudget | undefined): Record<string, unknown> {
  if (!isPlainObject(b.context)) throw new LlmViewError("the context is not an object");
  const hints = hintsForBreadcrumb(b, schemaDefHints);
  const context: Record<string, unknown> = {};
  for (const key of Object.keys(b.context)) if (key !== "llm_hints") setOwn(context, key, b.context[key]);

  const data: TemplateData = {
    context,
    title: b.title,
    tags: b.tags,
    schema_name: b.schema_name,
    id: b.id,
    version: b.version,
  };
  const budget = caller ? caller.child(VIEW_UNITS, "llm view") : createWorkBudget({ units: VIEW_UNITS, what: "llm view" });
  // Transforms draw on a share of the view's budget, so copying the context and the outputs
  // (error entries included) still has the rest.
  const transforms = budget.child(TRANSFORMS_UNITS, "llm view transforms", TRANSFORMS_DEADLINE_MS);
  const outputs = new Map<string, unknown>();
  for (const [key, rule] of Object.entries(hints.transform ?? {})) {
    const own = transforms.child(TRANSFORM_UNITS, `transform ${key}`, TRANSFORM_DEADLINE_MS);
    try {
      outputs.set(key, compileRule(rule)(data, own));
    } catch (e) {
      if (e instanceof BudgetExceededError && (e.budget === own || e.budget === transforms)) {
        // Fail closed, per output: an error entry, never a partial value or the raw context.
        outputs.set(key, { error: e.code, message: e.message });
        continue;
      }
      if (e instanceof BudgetExceededError) throw e;
      const reason = e instanceof RangeError ? "the data is nested too deeply" : e instanceof Error ? e.message : String(e);
      throw new LlmViewError(`transform ${key} failed: ${reason}`, {
        issues: [{ path: ["transform", key], code: "transform_failed", message: reason }],
      });
    }
  }

  const hasTransforms = outputs.size > 0;
  const mode = hints.mode ?? (hasTransforms ? "replace" : "merge");
  const exclude = hints.exclude?.length ? buildPathTrie(hints.exclude) : undefined;
  const view: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    const node = exclude?.children.get(key);
    if (node?.terminal) return;
    setOwn(view, key, copyExcluding(value, node, 1, budget));
  };
  for (const [key, value] of outputs) put(key, value);
  if (mode === "merge") {
    const include = hints.include ? buildPathTrie(hints.include) : undefined;
    for (const key of Object.keys(context)) {
      if (outputs.has(key)) continue;
      let value = context[key];
      if (include) {
        const node = include.children.get(key);
        if (!node) continue;
        value = pick(value, node);
        if (value === undefined) continue;
      }
      put(key, value);
    }
  }
  return view;
}

/**
 * The `?view=llm` object of a breadcrumb. Throws LlmViewError (422) rather than leak the raw context,
 * and BudgetExceededError when `budget` (the caller's, e.g. a request's) runs out.
 */
export function renderLlmView(b: LlmViewInput, schemaDefHints?: LlmHints, budget?: WorkBudget): Record<string, unknown> {
  try {
    return viewOf(b, schemaDefHints, budget);
  } catch (e) {
    if (e instanceof LlmViewError || e instanceof BudgetExceededError) throw e;
    if (e instanceof CrumbsError) throw new LlmViewError(e.message, e.details);
    if (e instanceof RangeError) throw new LlmViewError("the view is nested too deeply");
    throw new LlmViewError(`the view failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
