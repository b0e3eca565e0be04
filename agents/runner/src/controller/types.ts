import type { Pcd, TaskContext, TaskSkill, TaskStatus } from "@crumbs/schemas";
import type { Expectation, QueryAnswer } from "./skills.ts";

// The task controller's shapes: its config, the calls it emits and the results fed back, and the
// bookkeeping it keeps inside the task context so any runner replica can resume a task.

export type Risk = "low" | "medium" | "high";

export interface ControllerConfig {
  skills: ReadonlySet<TaskSkill>;
  beam: number;
  depth: number;
  maxModelCalls: number;
  /** Browser calls one task may make: the controller's budget. */
  maxCalls: number;
  /** False: no exploration either, the model decides whenever no skill does (the bench's "skills off"). */
  explore?: boolean;
  /** Ask the scout (a read-only model call) when a query leaves the element to act on ambiguous. */
  scout?: boolean;
  /**
   * Explore in background tabs: each candidate's link is read (`get` href), opened with `tab_new`
   * inactive, perceived there and closed; the winner's tab is switched to. Off: navigate and go back
   * in the task's own tab.
   */
  tabs?: boolean;
}

export interface Call {
  action: string;
  params: Record<string, unknown>;
  risk?: Risk;
}

/** One browser call the IO side must write, numbered from 1 within the task. */
export interface Emit {
  step: number;
  step_id?: string;
  skill?: string;
  call: Call;
  /** The target as resolved, for the step record. */
  selector?: string;
  /** What this call is for, when not a plan step's: perceiving, or a move of exploration. */
  purpose:
    | "perceive"
    | "verify"
    | "plan"
    | "explore-return"
    | "explore-click"
    | "explore-arrive"
    | "explore-tabs"
    | "explore-href"
    | "explore-open"
    | "explore-close"
    | "explore-win"
    | "model";
  /** The tab it runs on, when not the session's current one (exploring in background tabs). */
  tab_id?: number;
}

export interface Outcome {
  ok: boolean;
  code?: string;
  message?: string;
  data?: unknown;
  observation?: { url: string; title: string; url_changed: boolean };
  started_at: string;
  duration_ms: number;
  request_id?: string;
}

export type Next =
  | { kind: "act"; emit: Emit }
  | { kind: "model"; pcd: Pcd | undefined }
  /** Which of these answers is meant by the step? Read-only: the scout only ranks. */
  | { kind: "scout"; step: string; answers: QueryAnswer[] }
  | { kind: "done"; status: Extract<TaskStatus, "succeeded" | "failed" | "blocked">; message: string };

export interface Candidate {
  node: string;
  parent: string;
  label: string;
  role: string;
  depth: number;
  score: number;
  /** The link's address, read before it is opened in a background tab. */
  url?: string;
}

/** The controller's own bookkeeping, kept in the task context (`controller`) so any replica resumes it. */
export interface ControllerState {
  calls: number;
  pending?: Emit;
  pcd_version: number;
  url?: string;
  login_done?: boolean;
  failures: number;
  plans: number;
  /** The goal page was reached (its predicates scored 1). */
  at_goal?: boolean;
  /** A model's single step is in the plan: think again after it. */
  last_plan_skill?: string;
  /** The last plan only leads toward the goal's skill (checkout's way to the form): think again after it. */
  last_plan_partial?: boolean;
  explore?: {
    frontier: Candidate[];
    at?: string;
    target?: Candidate;
    visits: number;
    next_id: number;
    /** Background tabs: the task's own tab, each open node's tab, links whose href is still to read, the node whose tab closes next. */
    main?: number;
    tabs?: Record<string, number>;
    hrefs?: string[];
    reading?: string;
    closing?: string;
    won?: boolean;
  };
  /**
   * What a plan step needs beyond the contract's fields, by step id: a verify step's expectation, a
   * click bound to the query before it. Kept here because the contract's plan steps are strict.
   */
  aux: Record<string, { expect?: Expectation; bind?: "query" }>;
  /** The query answers the scout is asked about, for the step bound to them. */
  scout?: { step: string; answers: QueryAnswer[] };
}

export type ControlledTask = TaskContext & { controller: ControllerState };

export interface TaskIds {
  task_id: string;
  session_id: string;
  agent_id?: string;
  root?: { id: string; version: number };
}
