import { CrumbsError, type ErrorDetails } from "./contract/errors.ts";

// One primitive bounds every engine that runs untrusted work (selectors, JSONPath, templates, llm
// views): a budget of abstract work units plus an optional wall-clock deadline. Engines call
// `spend(n)` as they go (a JSONPath node visited, a result kept, an #each iteration, a regex scan
// of n characters) and stop with BudgetExceededError the moment it runs out, so no single
// evaluation can hold the thread longer than its budget allows. One unit is roughly one node visit,
// 25-200 ns measured (idle to heavily loaded machine); costs of other steps (8 characters of template text, 4 characters of regex
// input) are scaled to match. A budget is a ceiling on work, not a price list.

export type BudgetReason = "units" | "deadline";

/**
 * A piece of work ran out of its budget. Units: the work asked for is too large, retrying does not
 * help (422). Deadline: the server could not finish in time, retrying later may (503 + Retry-After).
 */
export class BudgetExceededError extends CrumbsError {
  readonly reason: BudgetReason;
  /** The budget that ran out (a parent's when a child's spending exhausted it); not serialized. */
  declare readonly budget: WorkBudget;

  constructor(message: string, reason: BudgetReason, budget: WorkBudget, details?: ErrorDetails) {
    super("budget_exceeded", message, reason === "deadline" ? 503 : 422, details);
    this.reason = reason;
    Object.defineProperty(this, "budget", { value: budget, enumerable: false });
  }
}

export interface WorkBudgetOptions {
  /** Work units this budget allows. */
  units: number;
  /** Milliseconds from now after which spending throws; undefined = no deadline. */
  deadlineMs?: number;
  /** What the budget bounds, for error messages ("selector", "llm view", "request"). */
  what?: string;
  /** Spending here is also charged to the parent (a row's budget inside a request's). */
  parent?: WorkBudget;
  /** Clock in milliseconds; tests pass their own. */
  now?: () => number;
}

export interface WorkBudget {
  readonly what: string;
  readonly units: number;
  readonly used: number;
  /** Charges n units (default 1); throws BudgetExceededError past the units or the deadline. */
  spend(n?: number): void;
  /** Throws BudgetExceededError if the deadline (own or a parent's) has passed. */
  checkDeadline(): void;
  /** A budget of at most `units` (and `deadlineMs` from now) whose spending also counts here. */
  child(units: number, what?: string, deadlineMs?: number): WorkBudget;
}

// Reading the clock on every unit would cost more than the work; every ~1k units is ~tens of µs.
const CLOCK_EVERY = 1024;
const defaultNow = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

/**
 * `CRUMBS_WORK_DEADLINES=off` drops the deadlines of budgets on the real clock; units still bound
 * every engine. The test suite sets it (vitest.config.ts): on a shared 2-core machine a thread that
 * is merely preempted can pass a 15 ms transform deadline in a benign view, and a test about what
 * the view holds then fails for the machine's sake. Time is for `npm run bench`, which runs with
 * deadlines on. A budget with a clock of its own (`now`) keeps its deadline, so that logic is
 * still tested.
 */
const realClockDeadlinesOff =
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.CRUMBS_WORK_DEADLINES === "off";

class Budget implements WorkBudget {
  readonly what: string;
  readonly units: number;
  used = 0;
  private readonly deadline: number | undefined;
  private readonly deadlineMs: number | undefined;
  private readonly parent: WorkBudget | undefined;
  private readonly now: () => number;
  private sinceClock = 0;

  constructor(o: WorkBudgetOptions) {
    if (!(o.units >= 0)) throw new RangeError("a work budget needs units >= 0");
    this.what = o.what ?? "work";
    this.units = o.units;
    this.parent = o.parent;
    this.now = o.now ?? defaultNow;
    this.deadlineMs = o.deadlineMs;
    const off = realClockDeadlinesOff && this.now === defaultNow;
    this.deadline = o.deadlineMs === undefined || off ? undefined : this.now() + o.deadlineMs;
  }

  spend(n = 1): void {
    this.used += n;
    if (this.used > this.units) {
      throw new BudgetExceededError(`${this.what} stopped: it needs more than ${this.units} work units`, "units", this, {
        limit: { name: this.what, max: this.units, unit: "work units" },
      });
    }
    this.parent?.spend(n);
    this.sinceClock += n;
    if (this.sinceClock >= CLOCK_EVERY) {
      this.sinceClock = 0;
      this.checkOwnDeadline();
    }
  }

  checkDeadline(): void {
    this.checkOwnDeadline();
    this.parent?.checkDeadline();
  }

  private checkOwnDeadline(): void {
    if (this.deadline !== undefined && this.now() > this.deadline) {
      throw new BudgetExceededError(`${this.what} stopped: it ran past its ${this.deadlineMs} ms deadline`, "deadline", this, {
        limit: { name: this.what, max: this.deadlineMs ?? 0, unit: "ms" },
      });
    }
  }

  child(units: number, what = this.what, deadlineMs?: number): WorkBudget {
    return new Budget({ units, what, parent: this, now: this.now, deadlineMs });
  }
}

export function createWorkBudget(options: WorkBudgetOptions): WorkBudget {
  return new Budget(options);
}

/**
 * Units one evaluation gets when its caller passes no budget: one selector test on one breadcrumb,
 * one JSONPath evaluation, one template render. Enough to walk the largest context the API accepts
 * (some 30k nodes) with `$..name`; measured at 3-60 ms of JSONPath work on a shared 2-core machine
 * (idle to a load average of 14), so one evaluation never holds the thread long enough to starve others.
 */
export const DEFAULT_EVALUATION_UNITS = 100_000;

export function evaluationBudget(what: string, budget?: WorkBudget): WorkBudget {
  return budget ?? createWorkBudget({ units: DEFAULT_EVALUATION_UNITS, what });
}
