import { setImmediate as nextTurn } from "node:timers/promises";
import { createWorkBudget, DEFAULT_EVALUATION_UNITS, type WorkBudget } from "@crumbs/schemas";

// Selector and llm-view work for one request runs on the event loop every other request shares,
// so it is bounded twice: each row gets one evaluation budget (tens of ms of work at most, the
// engines stop themselves), and the request has a total and a deadline. Between rows the loop
// is given back every SLICE_MS, so /healthz and other owners' writes keep being served while a
// long page is filtered. Past a budget: BudgetExceededError, 422 (units) or 503 + Retry-After
// (deadline), mapped in http/errors.ts.

/** Work units of one request: some 50 rows' worth of worst-case evaluations. */
export const REQUEST_WORK_UNITS = 10_000_000;
/** Wall-clock time one request may spend evaluating selectors and views. */
export const REQUEST_DEADLINE_MS = 1_500;
/** Longest stretch of row evaluations before the loop is given back. */
const SLICE_MS = 10;

export function requestBudget(): WorkBudget {
  return createWorkBudget({ units: REQUEST_WORK_UNITS, deadlineMs: REQUEST_DEADLINE_MS, what: "request" });
}

/** Hands out per-row budgets within a request's and yields to the event loop between rows. */
export class RowPacer {
  private sliceStart = performance.now();

  constructor(readonly budget: WorkBudget = requestBudget()) {}

  /** The budget of one row's evaluation (a selector test, one llm view). */
  row(what = "selector"): WorkBudget {
    return this.budget.child(DEFAULT_EVALUATION_UNITS, what);
  }

  /** Call after each row: throws past the request's deadline, yields once a slice is used up. */
  async breathe(): Promise<void> {
    this.budget.checkDeadline();
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await nextTurn();
    this.sliceStart = performance.now();
    this.budget.checkDeadline();
  }
}
