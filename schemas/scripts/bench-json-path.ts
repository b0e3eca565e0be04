// Micro-benchmark: JSONPath through jsonpath-plus vs the own walker, on the reference page context
// (src/contract/fixtures/page-context-example.ts), plus the two hot paths end to end (a selector on
// $.url, its llm view).
// Run: npx tsx schemas/scripts/bench-json-path.ts   (numbers go in schemas/README.md)
import { REFERENCE_PAGE_CONTEXT, REFERENCE_PAGE_HINTS } from "../src/contract/fixtures/page-context-example.ts";
import { createWorkBudget } from "../src/budget.ts";
import { evaluateOwn } from "../src/json-path/json-path-own.ts";
import { evaluatePlus } from "../src/json-path/json-path-plus.ts";
import { parseJsonPath } from "../src/json-path/json-path.ts";
import { renderLlmView } from "../src/llm-view/llm-view.ts";
import { compileSelector } from "../src/selector/selector-compile.ts";

const N = Number(process.env.N ?? 100_000);
const ROUNDS = 5;
const doc: unknown = REFERENCE_PAGE_CONTEXT;

/** Best of ROUNDS runs of N calls, in µs per call (a shared machine only ever adds time). */
function best(run: () => unknown, n = N): number {
  let min = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) run();
    min = Math.min(min, Number(process.hrtime.bigint() - t0) / 1e3 / n);
  }
  return min;
}

const paths = [
  "$.content.mainText",
  "$.url",
  "$.content.headings[0]",
  "$.content.links[*].href",
  "$..href",
  "$.content.links[?(@.href == '/docs/api')].text",
];
console.log(`best of ${ROUNDS} x ${N} evaluations, µs per evaluation`);
for (const p of paths) {
  const path = parseJsonPath(p);
  // A fresh budget per evaluation, as production code gets one (evaluateJsonPath's default).
  const own1 = () => evaluateOwn(path.steps, doc, createWorkBudget({ units: 100_000 }));
  if (JSON.stringify(own1()) !== JSON.stringify(evaluatePlus(path, doc))) throw new Error(`disagree on ${p}`);
  const own = best(own1);
  const plus = best(() => evaluatePlus(path, doc));
  console.log(`${p.padEnd(50)} own ${own.toFixed(2).padStart(6)}  jsonpath-plus ${plus.toFixed(2).padStart(6)}  ${(plus / own).toFixed(1)}x`);
}

const selector = compileSelector({ context_match: [{ path: "$.url", op: "eq", value: (doc as { url: string }).url }] });
const target = { schema_name: "browser.page.context.v1", tags: [], context: doc };
console.log(`selector $.url eq, matches():               ${best(() => selector.matches(target)).toFixed(2)} µs`);
const crumb = { schema_name: "browser.page.context.v1", title: "t", tags: [], context: { ...(doc as object), llm_hints: REFERENCE_PAGE_HINTS } };
console.log(`reference llm view, renderLlmView():         ${best(() => renderLlmView(crumb), N / 10).toFixed(2)} µs`);
