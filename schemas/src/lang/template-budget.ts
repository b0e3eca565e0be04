import { BudgetExceededError, type WorkBudget } from "../budget.ts";

// Limits of one template render. Handlebars renders synchronously, so the render in progress is
// module state: the `each` wrapper and the helpers charge the budget of the render that called
// them without it being threaded through Handlebars' own data.

/** `#each` iterations (and sections over arrays) in one render, all nesting levels together. */
export const MAX_TEMPLATE_ITERATIONS = 10_000;
/** Characters one render may produce. */
export const MAX_TEMPLATE_OUTPUT = 1_048_576;
/** Loops (`#each`, or a section over a path) nested in one another; refused when written. */
export const MAX_LOOP_NESTING = 3;

const ITERATION_UNITS = 25;

interface Render {
  budget: WorkBudget;
  iterations: number;
}

let active: Render | undefined;

export function renderWithin<T>(budget: WorkBudget, render: () => T): T {
  const outer = active;
  active = { budget, iterations: 0 };
  try {
    return render();
  } finally {
    active = outer;
  }
}

/** Text a helper or a loop body produced: a unit per 8 characters (JSON.stringify speed), and the output cap. */
export function chargeText(length: number): void {
  if (!active) return;
  if (length > MAX_TEMPLATE_OUTPUT) {
    throw new BudgetExceededError(`template output is longer than ${MAX_TEMPLATE_OUTPUT} characters`, "units", active.budget, {
      limit: { name: "template output", max: MAX_TEMPLATE_OUTPUT, unit: "characters" },
    });
  }
  active.budget.spend(1 + (length >> 3));
}

export function chargeIteration(): void {
  if (!active) return;
  if (++active.iterations > MAX_TEMPLATE_ITERATIONS) {
    throw new BudgetExceededError(`template runs more than ${MAX_TEMPLATE_ITERATIONS} #each iterations`, "units", active.budget, {
      limit: { name: "template #each iterations", max: MAX_TEMPLATE_ITERATIONS, unit: "iterations" },
    });
  }
  // An iteration costs Handlebars a frame and a few calls: a few µs, some 25 node visits.
  active.budget.spend(ITERATION_UNITS);
}
