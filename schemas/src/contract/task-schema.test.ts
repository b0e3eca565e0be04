import { describe, expect, it } from "vitest";
import { SchemaValidationError } from "./errors.ts";
import { validateContext } from "./known-schemas.ts";
import { TASK_FINAL_STATUSES, TASK_LIMITS, TASK_SCHEMA, TASK_STATUSES, taskContextSchema, taskTitle, type TaskContext } from "./task-schema.ts";

const at = "2026-11-28T14:00:00.000Z";
const minimal = { task_id: "t1", session_id: "s1", goal: "download last month's invoice", status: "created", progress: 0, started_at: at, updated_at: at };

/** A task midway: planned by a skill, one step run, a slot bound, two pages explored. */
const midway = {
  ...minimal,
  agent_id: "invoice-helper",
  root: { id: "b1", version: 1 },
  subgoal: "open the invoices page",
  goal_predicates: [{ kind: "collection", words: ["invoice"], fields: ["date", "download"] }],
  status: "executing",
  progress: 0.5,
  plan: [
    { id: "s1", skill: "navigate_menu", call: "click", params: { ref: "e4" }, label: "Open Billing", status: "done", risk: "low" },
    { id: "s2", skill: "open_item", call: "click", params: { ref: "e9" }, label: "Download October 2026", status: "pending", alternatives: ["ref e10"] },
  ],
  history: [
    {
      step_id: "s1",
      skill: "navigate_menu",
      call: { action: "click", params: { ref: "e4" }, request_id: "r1" },
      selector: "ref e4",
      started_at: at,
      duration_ms: 120,
      result: { ok: true },
      observation: "now at /billing (Billing)",
      url: "http://site.test/billing",
      pcd_version: 3,
    },
  ],
  slots: { month: { value: "2026-10", source: "goal" }, password: { value: "site_password", source: "secret", ref: "e2" } },
  site_graph: {
    nodes: [
      { id: "n0", url: "http://site.test/", depth: 0, score: 0.1, state: "visited" },
      { id: "n1", url: "http://site.test/billing", title: "Billing", depth: 1, score: 0.6, state: "goal" },
    ],
    edges: [{ from: "n0", to: "n1", label: "Billing", ref: "e4" }],
    recent_urls: ["http://site.test/", "http://site.test/billing"],
  },
  skills_used: ["navigate_menu"],
  model_calls: 1,
};

describe("browser.task.v1", () => {
  it("accepts a new task and fills the empty plan, history and slots", () => {
    const task = validateContext(TASK_SCHEMA, minimal) as TaskContext;
    expect(task).toMatchObject({ plan: [], history: [], slots: {}, goal_predicates: [], model_calls: 0 });
  });
  it("accepts a task midway with plan, step records, slots and its site graph, keeping extra fields", () => {
    const task = validateContext(TASK_SCHEMA, { ...midway, extra: "kept" });
    expect(task.extra).toBe("kept");
    expect((task as TaskContext).history[0]?.pcd_version).toBe(3);
  });
  it("knows every status, and which ones are final", () => {
    for (const status of TASK_STATUSES) expect(taskContextSchema.safeParse({ ...minimal, status }).success).toBe(true);
    expect([...TASK_FINAL_STATUSES].sort()).toEqual(["cancelled", "failed", "succeeded"]);
  });
  it.each([
    ["an unknown status", { status: "done" }, "status"],
    ["progress above 1", { progress: 1.2 }, "progress"],
    ["progress below 0", { progress: -0.1 }, "progress"],
    ["an empty goal", { goal: "" }, "goal"],
    ["a goal too long", { goal: "x".repeat(TASK_LIMITS.goal + 1) }, "goal"],
    ["a plan too long", { plan: Array.from({ length: TASK_LIMITS.planSteps + 1 }, (_, i) => ({ id: `s${i}`, call: "click", label: "x", status: "pending" })) }, "plan"],
    ["a step with a bad status", { plan: [{ id: "s1", call: "click", label: "x", status: "later" }] }, "plan"],
    ["a slot with a bad source", { slots: { q: { value: "x", source: "guess" } } }, "slots"],
    ["too many slots", { slots: Object.fromEntries(Array.from({ length: TASK_LIMITS.slots + 1 }, (_, i) => [`s${i}`, { value: "x", source: "goal" }])) }, "slots"],
    ["a graph node with score 2", { site_graph: { nodes: [{ id: "n", url: "u", depth: 0, score: 2 }], edges: [], recent_urls: [] } }, "site_graph"],
    ["params too long", { plan: [{ id: "s1", call: "fill", params: { value: "x".repeat(TASK_LIMITS.params) }, label: "x", status: "pending" }] }, "plan"],
    ["a non-ISO time", { started_at: "yesterday" }, "started_at"],
  ])("refuses %s", (_what, patch, path) => {
    try {
      validateContext(TASK_SCHEMA, { ...minimal, ...patch });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SchemaValidationError);
      expect((e as SchemaValidationError).message).toContain(`context.${path}`);
    }
  });
  it("refuses a context over its byte bound even when each field is within its own", () => {
    const record = { ...midway.history[0], observation: "é".repeat(TASK_LIMITS.text) };
    const history = Array.from({ length: TASK_LIMITS.history }, () => record);
    const parsed = taskContextSchema.safeParse({ ...minimal, history });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain(`${TASK_LIMITS.bytes} bytes`);
  });
  it("an agent definition opts into skills by name, with exploration bounds", () => {
    const def = {
      agent_id: "task-helper",
      model: "m",
      system_prompt: "",
      subscriptions: { selectors: [{ schema_name: "chat.message.v1" }] },
      skills: ["login", "open_item"],
      explore: { beam: 5, depth: 4 },
      max_model_calls: 2,
      scout: true,
    };
    expect(validateContext("agent.def.v1", def).skills).toEqual(["login", "open_item"]);
    for (const bad of [{ skills: ["fly"] }, { explore: { beam: 6 } }, { explore: { depth: 5 } }, { explore: { beam: 0 } }, { max_model_calls: 21 }]) {
      expect(() => validateContext("agent.def.v1", { ...def, ...bad }), JSON.stringify(bad)).toThrow(SchemaValidationError);
    }
  });
});

describe("taskTitle", () => {
  it("says the goal, the status and progress, and the step just recorded", () => {
    expect(taskTitle("helper", { goal: "download  last\nmonth's invoice", status: "planning", progress: 0 })).toBe(
      "helper: download last month's invoice · planning 0%",
    );
    const history = [
      { call: { action: "click" }, result: { ok: true } },
      { call: { action: "fill" }, result: { ok: false, code: "not_actionable" } },
    ];
    expect(taskTitle("helper", { goal: "sign in", status: "executing", progress: 0.456, history })).toBe(
      "helper: sign in · executing 46% · step 2 fill not_actionable",
    );
  });
});
