import { BudgetExceededError, createWorkBudget } from "./budget.ts";
import { renderLlmView } from "./llm-view/llm-view.ts";
import { compileSelector } from "./selector/selector-compile.ts";

// V8 runs a function interpreted until it is hot: the first hostile evaluation in a fresh process
// takes several times longer per work unit than later ones, and so holds the event loop longer
// than its budget was calibrated for. A server calls this once at start-up (some 50 ms) so the
// engines' hot loops are compiled before the first request arrives.

function sample(): Record<string, unknown> {
  let deep: Record<string, unknown> = { leaf: "a".repeat(4_000) + "b" };
  for (let i = 0; i < 20; i++) deep = { a: deep, b: { c: i, d: [i, i + 1] } };
  return { deep, items: Array.from({ length: 100 }, (_, i) => ({ i, name: `item ${i}` })) };
}

export function warmEngines(rounds = 20): void {
  const context = sample();
  const selectors = [
    compileSelector({ context_match: [{ path: "$..*..*..*", op: "eq", value: "nope" }] }),
    compileSelector({ context_match: [{ path: "$..leaf", op: "matches", value: "^(a|aa)*$" }] }),
    compileSelector({ context_match: [{ path: "$.items[?(@.i > 3)].name", op: "in", value: ["x", "y"] }] }),
  ];
  const hints = {
    mode: "merge" as const,
    transform: {
      loops: { type: "template" as const, template: "{{#each context.items}}{{#each ../context.items}}{{name}}{{/each}}{{/each}}" },
      walk: { type: "extract" as const, value: "$..*..*" },
    },
    exclude: ["deep"],
  };
  for (let r = 0; r < rounds; r++) {
    for (const s of selectors) {
      try {
        s.matches({ schema_name: "warm.v1", tags: [], context }, createWorkBudget({ units: 20_000 }));
      } catch (e) {
        if (!(e instanceof BudgetExceededError)) throw e;
      }
    }
    renderLlmView({ schema_name: "warm.v1", title: "warm", tags: [], context, llm_hints: hints });
  }
}
