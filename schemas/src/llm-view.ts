import type { Breadcrumb } from "./breadcrumb.ts";
import { builtinHintsFor } from "./default-hints.ts";
import { CrumbsError, InvalidLlmHintsError, LlmViewError } from "./errors.ts";
import { isPlainObject, setOwn } from "./json-values.ts";
import { mergeHints } from "./llm-hints-merge.ts";
import { llmHintsSchema, type LlmHints } from "./llm-hints-schema.ts";
import { compileRule, type TemplateData } from "./llm-rules.ts";
import { buildPathTrie, type PathTrie } from "./path-trie.ts";

// The view (DESIGN.md "llm_hints"):
//   1. hints = merge(built-in default, schema.def hints, context.llm_hints, top-level llm_hints);
//   2. every transform runs on {context (without llm_hints), title, tags, schema_name, id, version};
//   3. merge mode: the context's fields plus the outputs (outputs win a clash); replace: outputs only.
//      When the merged hints have no transform and no mode there is nothing to replace the context
//      with, so the view is the context (then include/exclude) rather than an empty object;
//   4. include keeps only the named context paths (the outputs always stay);
//   5. exclude removes dotted paths from everything, last.
// Any failure throws LlmViewError: the raw context is never returned instead (fail closed).
// The view is a fresh object; excluded subtrees are never even copied.

export type LlmViewInput = Pick<Breadcrumb, "schema_name" | "title" | "tags" | "context"> &
  Partial<Pick<Breadcrumb, "id" | "version" | "llm_hints">>;

const MAX_VIEW_DEPTH = 256;
const SCHEMA_DEF = "schema.def.v1";

/** Hints a breadcrumb is viewed with. A schema.def.v1's own context.llm_hints describe another schema. */
export function hintsForBreadcrumb(b: Pick<LlmViewInput, "schema_name" | "context" | "llm_hints">, schemaDefHints?: LlmHints): LlmHints {
  let contextHints: LlmHints | undefined;
  const raw = b.schema_name === SCHEMA_DEF ? undefined : (b.context as Record<string, unknown>).llm_hints;
  if (raw !== undefined && raw !== null) {
    const parsed = llmHintsSchema.safeParse(raw);
    if (!parsed.success) {
      throw new InvalidLlmHintsError("context.llm_hints is invalid", { where: "context.llm_hints", issues: parsed.error.issues });
    }
    contextHints = parsed.data;
  }
  return mergeHints([builtinHintsFor(b.schema_name), schemaDefHints, contextHints, b.llm_hints]);
}

function copyExcluding(value: unknown, exclude: PathTrie | undefined, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_VIEW_DEPTH) throw new LlmViewError(`the view is nested deeper than ${MAX_VIEW_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((v) => copyExcluding(v, exclude, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = exclude?.children.get(key);
    if (child?.terminal) continue;
    setOwn(out, key, copyExcluding((value as Record<string, unknown>)[key], child, depth + 1));
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

function viewOf(b: LlmViewInput, schemaDefHints: LlmHints | undefined): Record<string, unknown> {
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
  const outputs = new Map<string, unknown>();
  for (const [key, rule] of Object.entries(hints.transform ?? {})) {
    try {
      outputs.set(key, compileRule(rule)(data));
    } catch (e) {
      const reason = e instanceof RangeError ? "the data is nested too deeply" : e instanceof Error ? e.message : String(e);
      throw new LlmViewError(`transform ${key} failed: ${reason}`, { transform: key, reason });
    }
  }

  const hasTransforms = outputs.size > 0;
  const mode = hints.mode ?? (hasTransforms ? "replace" : "merge");
  const exclude = hints.exclude?.length ? buildPathTrie(hints.exclude) : undefined;
  const view: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    const node = exclude?.children.get(key);
    if (node?.terminal) return;
    setOwn(view, key, copyExcluding(value, node, 1));
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

/** The `?view=llm` object of a breadcrumb. Throws LlmViewError (422) rather than leak the raw context. */
export function renderLlmView(b: LlmViewInput, schemaDefHints?: LlmHints): Record<string, unknown> {
  try {
    return viewOf(b, schemaDefHints);
  } catch (e) {
    if (e instanceof LlmViewError) throw e;
    if (e instanceof CrumbsError) throw new LlmViewError(e.message, e.details);
    if (e instanceof RangeError) throw new LlmViewError("the view is nested too deeply");
    throw new LlmViewError(`the view failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
