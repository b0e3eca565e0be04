import { describe, expect, it } from "vitest";
import { TASK_SKILLS, taskContextSchema, type Pcd, type TaskSkill, type TaskStatus } from "@crumbs/schemas";
import { advance, applyModelChoice, applyScout, startTask, type ControlledTask, type ControllerConfig, type Emit, type Next, type Outcome, type ScoutCandidate } from "./index.ts";
import { fakeBrowser, fakeSitePages, type FakeBrowser } from "./fake-site.ts";
import { monthOf, parseGoal, relevance } from "./goal.ts";
import { judgePage } from "./predicates.ts";
import { fillForm, login, openItem, paginate, search, type QueryAnswer } from "./skills.ts";

// The controller on a small account site (fake-site.ts): pages as capability views, a browser that
// runs the controller's calls. The clock is fixed, so "last month" is October 2026.

const NOW = new Date("2026-11-28T12:00:00Z");
const MONTHS = [monthOf(NOW, 0), monthOf(NOW, -1), monthOf(NOW, -2)];
const config = (skills: readonly TaskSkill[] = TASK_SKILLS, extra: Partial<ControllerConfig> = {}): ControllerConfig => ({
  skills: new Set(skills),
  beam: 3,
  depth: 3,
  maxModelCalls: 2,
  maxCalls: 40,
  ...extra,
});
const ids = { task_id: "t1", session_id: "s1", agent_id: "invoice-helper", root: { id: "b1", version: 1 } };

interface Run {
  task: ControlledTask;
  last: Next;
  statuses: TaskStatus[];
  progress: number[];
  modelAsked: number;
}

/** Runs a task to its end on the fake site; `model` answers when the controller asks. */
function run(
  goal: string,
  start: string | FakeBrowser,
  cfg = config(),
  model?: (task: ControlledTask, pcd: Pcd) => Parameters<typeof applyModelChoice>[2],
  scout?: (answers: QueryAnswer[]) => ScoutCandidate[],
): Run {
  const browser = typeof start === "string" ? fakeBrowser(start, MONTHS) : start;
  let { task, next } = startTask(ids, goal, NOW);
  const statuses: TaskStatus[] = [task.status];
  const progress: number[] = [task.progress];
  let modelAsked = 0;
  for (let i = 0; i < 100 && next.kind !== "done"; i++) {
    if (next.kind === "model") {
      modelAsked++;
      if (!model) throw new Error(`the model was asked: ${task.message}`);
      next = applyModelChoice(task, next.pcd!, model(task, next.pcd!), cfg, NOW);
    } else if (next.kind === "scout") {
      modelAsked++;
      if (!scout) throw new Error("the scout was asked");
      next = applyScout(task, scout(next.answers), NOW);
    } else next = advance(task, browser.run(next.emit), cfg, NOW);
    if (statuses.at(-1) !== task.status) statuses.push(task.status);
    progress.push(task.progress);
    // Every version the runner would write is a valid browser.task.v1.
    expect(taskContextSchema.safeParse(task).success).toBe(true);
    task = JSON.parse(JSON.stringify(task)) as ControlledTask; // what the next replica reads back
  }
  return { task, last: next, statuses, progress, modelAsked };
}

describe("the goal in words", () => {
  it("'download last month's invoice' is opening one item of the invoices, October 2026 on the injected clock", () => {
    const g = parseGoal("download last month's invoice", NOW);
    expect(g).toMatchObject({ intent: "open_item", finalSkill: "open_item", objectWords: ["invoice"], itemWords: ["October 2026"], verb: "download" });
    expect(g.slots.month).toEqual({ value: "2026-10", source: "goal" });
    expect(g.predicates).toEqual([{ kind: "collection", words: ["invoice"], fields: ["October 2026"] }]);
    expect(parseGoal("download last month's invoice", new Date("2027-01-05T00:00:00Z")).itemWords).toEqual(["December 2026"]);
  });
  it("reads an email as the user name, a quoted query, field values and a search", () => {
    expect(parseGoal("log in as ada@example.test and open my orders", NOW).slots.username?.value).toBe("ada@example.test");
    expect(parseGoal('search for "red shoes"', NOW).slots.query?.value).toBe("red shoes");
    expect(parseGoal("search for blue hats", NOW).slots.query?.value).toBe("blue hats");
    expect(parseGoal("subscribe to the newsletter with name: Ada, email: ada@example.test", NOW).slots).toMatchObject({ name: { value: "Ada" }, email: { value: "ada@example.test" } });
  });
  it("scores links by where the goal's object lives", () => {
    expect(relevance("Invoices", ["invoice"])).toBe(1);
    expect(relevance("Billing", ["invoice"])).toBe(0.6);
    expect(relevance("My account", ["invoice"])).toBe(0.3);
    expect(relevance("Products", ["invoice"])).toBe(0);
  });
});

describe("goal predicates on the capability view", () => {
  const pages = fakeSitePages(MONTHS);
  const goal = parseGoal("download last month's invoice", NOW);
  it("recognise the invoices list as the goal page, and not the billing page that links to it", () => {
    expect(judgePage(pages["/invoices.html"]!, goal.predicates).score).toBe(1);
    expect(judgePage(pages["/billing.html"]!, goal.predicates).score).toBe(0);
  });
  it("recognise forms by purpose and actions by kind and words", () => {
    expect(judgePage(pages["/login.html"]!, [{ kind: "form", purpose: "login" }]).score).toBe(1);
    expect(judgePage(pages["/home.html"]!, [{ kind: "form", purpose: "login" }]).score).toBe(0);
    expect(judgePage(pages["/products.html"]!, [{ kind: "action", words: ["next"] }]).score).toBe(1);
    expect(judgePage(pages["/home.html"]!, [{ kind: "action", action_kind: "auth", words: ["sign"] }]).score).toBe(1);
  });
});

describe("skills", () => {
  const pages = fakeSitePages(MONTHS);
  it("login fills the user name, never the password, and asks before the high-risk submit", () => {
    const goal = parseGoal("log in as ada@example.test and download last month's invoice", NOW);
    const plan = login({ pcd: pages["/login.html"]!, goal, slots: goal.slots })!;
    expect(plan.confidence).toBeGreaterThanOrEqual(0.85);
    expect(plan.steps.map((s) => s.call)).toEqual(["fill", "confirm", "click", "verify"]);
    expect(plan.steps[0]!.params).toEqual({ ref: "e1", value: "ada@example.test" });
    expect(plan.steps[2]).toMatchObject({ risk: "high", params: { ref: "e3" } });
    expect(JSON.stringify(plan)).not.toContain('"ref":"e2","value"');
    expect(plan.slots.password).toMatchObject({ source: "user", ref: "e2" });
  });
  it("no skill types into a field named like a secret, even one the page does not mark", () => {
    const goal = parseGoal("subscribe with email: ada@example.test, pin: 1234", NOW);
    const pcd: Pcd = {
      ...pages["/home.html"]!,
      forms: [{ id: "f1", purpose: "newsletter", fields: [{ ref: "e8", label: "Email", type: "email" }, { ref: "e9", label: "PIN", type: "text" }], submit: { ref: "e10", label: "Subscribe" } }],
    };
    const plan = fillForm({ pcd, goal, slots: goal.slots })!;
    expect(plan.steps.filter((s) => s.call === "fill").map((s) => s.params)).toEqual([{ ref: "e8", value: "ada@example.test" }]);
    expect(plan.steps.map((s) => s.call)).toEqual(["fill", "confirm", "click", "verify"]);
  });
  it("search, paginate and open_item match only the pages they fit", () => {
    const find = parseGoal('search for "hats"', NOW);
    expect(search({ pcd: pages["/search.html"]!, goal: find, slots: find.slots })?.steps.map((s) => s.call)).toEqual(["fill", "press", "verify"]);
    expect(search({ pcd: pages["/home.html"]!, goal: find, slots: find.slots })).toBeUndefined();
    const next = parseGoal("next page", NOW);
    expect(paginate({ pcd: pages["/products.html"]!, goal: next, slots: {} })?.confidence).toBe(0.9);
    const invoice = parseGoal("download last month's invoice", NOW);
    expect(openItem({ pcd: pages["/invoices.html"]!, goal: invoice, slots: {} })?.steps.map((s) => s.call)).toEqual(["query", "click", "verify"]);
    expect(openItem({ pcd: pages["/billing.html"]!, goal: invoice, slots: {} })).toBeUndefined();
  });
});

describe("a task on the account site", () => {
  it("'log in and download last month's invoice' succeeds by skills and exploration, with no model call", () => {
    const r = run("log in as ada@example.test and download last month's invoice", "/login.html");
    expect(r.last).toMatchObject({ kind: "done", status: "succeeded" });
    expect(r.modelAsked).toBe(0);
    expect(r.task.model_calls).toBe(0);
    expect(r.statuses).toEqual(["planning", "executing", "awaiting_user", "executing", "exploring", "executing", "succeeded"]);
    expect(r.progress.at(-1)).toBe(1);
    for (let i = 1; i < r.progress.length; i++) expect(r.progress[i]).toBeGreaterThanOrEqual(r.progress[i - 1]!);
    expect(r.task.skills_used).toEqual(["login", "open_item"]);
    // Every call is recorded, with its selector, result and the capability view's version.
    expect(r.task.history.length).toBe(r.task.controller.calls);
    expect(r.task.history.every((h) => h.result.ok && h.started_at && h.duration_ms >= 0)).toBe(true);
    const opened = r.task.history.at(-2)!;
    expect(opened).toMatchObject({ skill: "open_item", call: { action: "click", params: { ref: "e21" } }, selector: "ref e21", url: "http://site.test/invoice.html?month=2026-10" });
    expect(r.task.history.at(-1)!.pcd_version).toBe(r.task.controller.pcd_version);
    expect(r.task.slots).toMatchObject({ username: { value: "ada@example.test", ref: "e1" }, month: { value: "2026-10" }, password: { source: "user" } });
    // The site graph: home -> Account -> Billing -> Invoices, the goal.
    const g = r.task.site_graph!;
    const goalNode = g.nodes.find((n) => n.state === "goal")!;
    expect(goalNode).toMatchObject({ url: "http://site.test/invoices.html", depth: 3, score: 1 });
    expect(g.edges.map((e) => e.label)).toEqual(expect.arrayContaining(["Account", "Billing", "Invoices"]));
    expect(g.recent_urls.at(-1)).toBe("http://site.test/invoices.html");
  });

  it("a confirmation comes before the high-risk submit, and the task waits for the user meanwhile", () => {
    const browser = fakeBrowser("/login.html", MONTHS);
    const started = startTask(ids, "log in as ada@example.test and download last month's invoice", NOW);
    const task = started.task;
    let next = started.next;
    while (next.kind === "act" && next.emit.call.risk !== "high") next = advance(task, browser.run(next.emit), config(), NOW);
    expect(next).toMatchObject({ kind: "act", emit: { call: { action: "click", risk: "high" }, skill: "login" } });
    expect(task.status).toBe("awaiting_user");
    expect(task.message).toBe("Type your Password in the page, then approve signing in");
    expect(task.plan.find((p) => p.call === "confirm")!.status).toBe("running");
    // The user declines in the browser: the task fails and says so.
    const declined = advance(task, { ok: false, code: "blocked_by_policy", message: "the user declined this action", started_at: NOW.toISOString(), duration_ms: 5 }, config(), NOW);
    expect(declined).toMatchObject({ kind: "done", status: "failed" });
    expect(task.status).toBe("failed");
    expect(task.message).toMatch(/^You declined/);
  });

  it("exploration keeps to its beam and depth, and asks the model when the goal is nowhere", () => {
    const r = run("download my tax certificate", "/home.html", config(TASK_SKILLS, { beam: 3, depth: 3, maxModelCalls: 0 }));
    expect(r.last).toMatchObject({ kind: "done", status: "failed" });
    expect(r.task.message).toMatch(/exploration found no page/);
    const visited = r.task.site_graph!.nodes.filter((n) => n.state === "visited" || n.state === "goal");
    expect(visited.length).toBeLessThanOrEqual(1 + 3 * 3);
    expect(Math.max(...r.task.site_graph!.nodes.map((n) => n.depth))).toBeLessThanOrEqual(3);
  });

  it("with no skill enabled the model decides, once per decision, and may call a skill as a tool", () => {
    let asked = 0;
    const r = run("download last month's invoice", "/invoices.html", config([]), () => {
      asked++;
      // The first time it calls the open_item skill, which is not enabled for this agent: it is asked again.
      return asked === 1 ? { kind: "skill", skill: "open_item", slots: {} } : { kind: "text", content: "I cannot do that here." };
    });
    expect(r.modelAsked).toBe(2);
    expect(r.task.model_calls).toBe(2);
    expect(r.last).toMatchObject({ kind: "done" });
  });

  it("when exploration runs out, the model's browser steps lead on and the goal's skill finishes the task", () => {
    const r = run("get the October 2026 invoice", "/home.html", config(["open_item"], { beam: 1, depth: 1 }), (_task, pcd) => ({
      kind: "action",
      action: "click",
      params: { selector: { role: "link", name: pcd.title === "Account" ? "Billing" : "Invoices" } },
    }));
    expect(r.modelAsked).toBe(2);
    expect(r.last, r.task.message).toMatchObject({ kind: "done", status: "succeeded" });
    expect(r.task.history.at(-2)!.url).toBe("http://site.test/invoice.html?month=2026-10");
    expect(r.task.plan.filter((p) => p.label.startsWith("The model's choice")).map((p) => p.skill)).toEqual([undefined, undefined]);
  });

  it("an ambiguous item asks the scout once: it binds the best of at most five ranked candidates and keeps the rest as fallbacks", () => {
    // "the invoice" names no month: every Download link fits.
    let shown: QueryAnswer[] = [];
    const r = run("download the invoice", "/invoices.html", config(TASK_SKILLS, { scout: true }), undefined, (answers) => {
      shown = answers;
      return [
        { ref: "e22", confidence: 0.4, risk: "low", why: "older" },
        { ref: "e21", confidence: 0.9, risk: "low", why: "last month's, the latest complete one" },
        { ref: "e99", confidence: 1, risk: "low", why: "a ref it was never shown" },
      ];
    });
    expect(shown.map((a) => a.ref)).toEqual(expect.arrayContaining(["e20", "e21", "e22"]));
    expect(r.modelAsked).toBe(1);
    expect(r.task.model_calls).toBe(1);
    expect(r.last, r.task.message).toMatchObject({ kind: "done", status: "succeeded" });
    const click = r.task.plan.find((p) => p.skill === "open_item" && p.call === "click")!;
    expect(click.params).toEqual({ ref: "e21" });
    expect(click.alternatives?.[0]).toMatch(/^ref e22/);
    expect(r.task.slots.item).toMatchObject({ source: "scout", ref: "e21", confidence: 0.9 });
    expect(r.task.history.find((h) => h.call.action === "click")!.url).toBe("http://site.test/invoice.html?month=2026-10");
  });
  it("explores in background tabs when asked: each link read, opened inactive, judged, closed; the winner's tab kept and shown", () => {
    const browser = fakeBrowser("/home.html", MONTHS);
    const r = run("download last month's invoice", browser, config(TASK_SKILLS, { tabs: true }));
    expect(r.last, r.task.message).toMatchObject({ kind: "done", status: "succeeded" });
    expect(r.task.model_calls).toBe(0);
    // The user's tab never left home; the invoice opened in the tab exploration found Invoices in.
    const open = browser.tabs();
    expect(open.get(1)).toBe("/home.html");
    expect([...open.values()]).toEqual(["/home.html", "/invoice.html?month=2026-10"]);
    const actions = browser.calls.map((c) => c.call.action);
    expect(actions.filter((a) => a === "click").length).toBe(1); // only the invoice itself is clicked
    expect(actions.filter((a) => a === "tab_new").length).toBe(actions.filter((a) => a === "tab_close").length + 1);
    expect(browser.calls.filter((c) => c.call.action === "tab_new").every((c) => c.call.params.active === false)).toBe(true);
    expect(actions).toContain("tab_switch");
    expect(r.task.site_graph!.nodes.find((n) => n.state === "goal")).toMatchObject({ url: "http://site.test/invoices.html", depth: 3 });
  });
  it("checkout goes from the cart to the form, fills what the goal gives, and places the order only after the user approves", () => {
    const shop = "http://shop.test";
    const cart: Pcd = { url: `${shop}/cart`, origin: shop, title: "Cart", loginState: "in", landmarks: [], forms: [], collections: [], actions: [{ ref: "e5", label: "Checkout", role: "button" }] };
    const form: Pcd = {
      ...cart,
      url: `${shop}/checkout`,
      title: "Checkout",
      actions: [],
      forms: [
        {
          id: "f1",
          purpose: "checkout",
          fields: [
            { ref: "e1", label: "Full name", type: "text" },
            { ref: "e2", label: "Email", type: "email" },
            { ref: "e3", label: "Card number", type: "text", secret: true },
          ],
          submit: { ref: "e4", label: "Place order" },
        },
      ],
    };
    const placed: Pcd = { ...cart, url: `${shop}/thanks`, title: "Order placed", actions: [] };
    let at = cart;
    const sent: Emit[] = [];
    const outcome = (data?: unknown): Outcome => ({ ok: true, started_at: NOW.toISOString(), duration_ms: 5, ...(data ? { data } : {}), observation: { url: at.url, title: at.title, url_changed: false } });
    const started = startTask(ids, "check out with name: Ada Lovelace, email: ada@example.test", NOW);
    const task = started.task;
    let next = started.next;
    while (next.kind === "act") {
      sent.push(next.emit);
      const { action, params } = next.emit.call;
      if (action === "click" && params.ref === "e5") at = form;
      if (action === "click" && params.ref === "e4") {
        expect(task.status).toBe("awaiting_user");
        expect(task.message).toBe("Fill in Card number in the page, then approve placing the order");
        at = placed;
      }
      next = advance(task, outcome(action === "snapshot" ? { pcd: at } : undefined), config(), NOW);
    }
    expect(next, task.message).toMatchObject({ kind: "done", status: "succeeded", message: "Done: place the order." });
    const acts = sent.filter((e) => e.call.action !== "snapshot").map((e) => `${e.call.action} ${String(e.call.params.ref)} ${e.call.risk}`);
    expect(acts).toEqual(["click e5 medium", "fill e1 medium", "fill e2 medium", "click e4 high"]);
    expect(JSON.stringify(sent)).not.toContain('"ref":"e3","value"');
    expect(task.skills_used).toEqual(["checkout"]);
  });
});
