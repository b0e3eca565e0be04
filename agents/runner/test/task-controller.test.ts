import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Breadcrumb } from "@crumbs/agent-sdk";
import { type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { fakeBrowser, monthOf, type Emit, type Outcome } from "@crumbs/runner/controller";
import { TASK_SKILLS } from "@crumbs/schemas";
import { waitFor } from "@crumbs/testkit";
import { chatMessage, listAll, startStack, startStackRunner, type TestStack } from "./stack.ts";

// The task controller's IO with the real API, nats-server and Postgres: the test is the browser,
// answering each browser.action.v1 from the fake account site the way the extension writes results.
// What is checked is what the breadcrumbs say: the task's versions, its step records, the actions
// and the final answer, also when results come twice, say the user declined or stopped, or carry
// no capability view.

const NOW = new Date("2026-11-28T12:00:00Z");
const MONTHS = [monthOf(NOW, 0), monthOf(NOW, -1), monthOf(NOW, -2)];

let s: TestStack;
let runner: Runner;
beforeAll(async () => {
  s = await startStack();
  runner = await startStackRunner(s, { modelTimeoutMs: 3_000, logger: silentLogger, now: () => NOW });
  await s.client.create({
    schema_name: "agent.def.v1",
    title: "controlled",
    tags: ["agent:def", "agent:controlled"],
    context: {
      agent_id: "controlled",
      model: "test-model",
      system_prompt: "You help the task controller.",
      subscriptions: { selectors: [{ schema_name: "chat.message.v1", any_tags: ["user:message"] }] },
      tools: ["browser_*"],
      skills: [...TASK_SKILLS],
      explore: { beam: 3, depth: 3 },
      max_model_calls: 2,
      memory_tokens: 0,
    },
  });
  await waitFor(() => runner.agents().some((a) => a.def.agent_id === "controlled"), { message: "controlled agent loaded" });
});
afterAll(async () => {
  await runner?.close();
  await s?.close();
});

type Answer = (action: Breadcrumb, outcome: Outcome) => Partial<Outcome> & { status?: string } | undefined;

/**
 * Plays the browser for one session until the task's final answer: each new action is run on the
 * fake site and answered; `answer` may replace an outcome (a refusal, a cancel) or answer twice.
 */
async function browse(session: string, start: string, opts: { answer?: Answer; twice?: boolean } = {}): Promise<{ final: Breadcrumb; task: Breadcrumb }> {
  const browser = fakeBrowser(start, MONTHS);
  const answered = new Set<string>();
  const final = await waitFor(
    async () => {
      const actions = (await listAll(s.client, "browser.action.v1", `session:${session}`)).reverse();
      for (const a of actions) {
        if (answered.has(a.id)) continue;
        answered.add(a.id);
        const outcome = browser.run({ step: 0, call: { action: a.context.action, params: a.context.params }, purpose: "plan" } as Emit);
        const over = opts.answer?.(a, outcome);
        const o = { ...outcome, ...over };
        const result = {
          schema_name: "browser.action.result.v1",
          title: `${a.context.action} ${o.ok ? "ok" : o.code}`,
          tags: ["browser:action-result", `session:${session}`],
          context: {
            request_id: a.context.request_id,
            action_id: a.id,
            status: over?.status ?? (o.ok ? "ok" : "error"),
            ...(o.code ? { code: o.code } : {}),
            ...(o.message ? { message: o.message } : {}),
            ...(o.data === undefined ? {} : { data: o.data }),
            observation: o.observation ?? { url: "", title: "", url_changed: false },
          },
        };
        await s.client.create(result);
        if (opts.twice) await s.client.create(result);
      }
      const responses = await listAll(s.client, "agent.response.v1", `session:${session}`);
      return responses.find((r) => r.context.final === true);
    },
    { timeout: 30_000, interval: 50, message: `the final answer in ${session}` },
  );
  const [task] = await listAll(s.client, "browser.task.v1", `session:${session}`);
  return { final, task: task! };
}

interface Task {
  status: string;
  progress: number;
  model_calls: number;
  message?: string;
  history: Array<{ call: { action: string; request_id?: string }; result: { ok: boolean; code?: string } }>;
}

describe("a controlled task over the bus", () => {
  it("'download last month's invoice' from home succeeds with no model call; each action is one step record of the task", async () => {
    const before = s.fake.requests.length;
    await s.client.create(chatMessage("download last month's invoice", "s-ok", ["extension:ext-1"]));
    const { final, task } = await browse("s-ok", "/home.html");
    expect(final.context).toMatchObject({ agent_id: "controlled", content: "Done: download October 2026.", final: true });
    const t = task.context as unknown as Task;
    expect(t).toMatchObject({ status: "succeeded", progress: 1, model_calls: 0 });
    expect(s.fake.requests.length - before).toBe(0);
    const actions = await listAll(s.client, "browser.action.v1", "session:s-ok");
    expect(actions.every((a) => (a.context.task as { task_id: string }).task_id === task.id && a.tags.includes("extension:ext-1"))).toBe(true);
    expect(t.history.map((h) => h.call.request_id).sort()).toEqual(actions.map((a) => a.context.request_id).sort());
    expect(task.tags).toEqual(expect.arrayContaining(["browser:task", "session:s-ok", "agent:controlled", "extension:ext-1"]));

    // `crumbs replay` of the task's history: one line per version, its steps in the order they ran.
    const cli = fileURLToPath(new URL("../../../services/cli/bin/crumbs.js", import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, "replay", "--selector", JSON.stringify({ schema_name: "browser.task.v1", all_tags: ["session:s-ok"] })],
      { env: { ...process.env, CRUMBS_URL: s.env.CRUMBS_URL!, CRUMBS_TOKEN: s.env.CRUMBS_TOKEN! } },
    ).catch((err: { stderr?: string }) => {
      throw new Error(`crumbs replay failed: ${err.stderr ?? String(err)}`);
    });
    const lines = stdout.trim().split("\n").filter((l) => l.includes(" browser.task.v1 "));
    expect(lines).toHaveLength(task.version);
    expect(lines.at(-1)).toMatch(/ · succeeded 100% · step \d+ \S+ ok$/);
    const replayedSteps = lines.flatMap((l) => / · step (\d+) (\S+) /.exec(l)?.slice(1, 3) ?? []);
    const stepsInOrder = t.history.flatMap((h, i) => [String(i + 1), h.call.action]);
    expect(replayedSteps).toEqual(stepsInOrder);
  });

  it("every result written twice: the task still takes each step once", async () => {
    await s.client.create(chatMessage("download last month's invoice", "s-twice", ["extension:ext-1"]));
    const { task } = await browse("s-twice", "/home.html", { twice: true });
    const t = task.context as unknown as Task;
    expect(t.status).toBe("succeeded");
    const actions = await listAll(s.client, "browser.action.v1", "session:s-twice");
    const steps = actions.map((a) => (a.context.task as { step: number }).step);
    expect(new Set(steps).size).toBe(steps.length);
    expect(t.history).toHaveLength(actions.length);
  });

  it("the user declines the sign-in: the task fails saying so, and nothing more is sent", async () => {
    await s.client.create(chatMessage("log in as ada@example.test and download last month's invoice", "s-deny", ["extension:ext-1"]));
    const { final, task } = await browse("s-deny", "/login.html", {
      answer: (a) => (a.context.risk === "high" ? { ok: false, status: "error", code: "blocked_by_policy", message: "the user declined this action" } : undefined),
    });
    expect(task.context).toMatchObject({ status: "failed", message: "You declined: Submit: Sign in. Nothing more was done." });
    expect(final.context.content).toBe("You declined: Submit: Sign in. Nothing more was done.");
    const actions = await listAll(s.client, "browser.action.v1", "session:s-deny");
    expect(actions.map((a) => a.context.action).reverse()).toEqual(["snapshot", "fill", "click"]);
  });

  it("the user stops the task: it is recorded cancelled, with no further step", async () => {
    await s.client.create(chatMessage("download last month's invoice", "s-stop", ["extension:ext-1"]));
    let n = 0;
    const answer: Answer = () => (++n === 3 ? { ok: false, status: "error", code: "cancelled", message: "the user stopped the task" } : undefined);
    const { final, task } = await browse("s-stop", "/home.html", { answer });
    expect(final.context).toMatchObject({ status: "cancelled", final: true });
    expect(task.context).toMatchObject({ status: "cancelled" });
    expect(await listAll(s.client, "browser.action.v1", "session:s-stop")).toHaveLength(3);
  });

  it("a snapshot without a capability view fails the task with the reason, not a crash", async () => {
    await s.client.create(chatMessage("download last month's invoice", "s-nopcd", ["extension:ext-1"]));
    const { final, task } = await browse("s-nopcd", "/home.html", { answer: (a) => (a.context.action === "snapshot" ? { data: { text: "- main" } } : undefined) });
    expect(task.context).toMatchObject({ status: "failed" });
    expect(final.context.content).toMatch(/^The page could not be read/);
  });

  it("a message with no browser linked is answered with what is missing, and no task", async () => {
    await s.client.create(chatMessage("download last month's invoice", "s-nobrowser"));
    const [answer] = await waitFor(async () => {
      const r = await listAll(s.client, "agent.response.v1", "session:s-nobrowser");
      return r.length ? r : undefined;
    }, { message: "an answer" });
    expect(answer!.context.content).toMatch(/no browser is linked/);
    expect(await listAll(s.client, "browser.task.v1", "session:s-nobrowser")).toHaveLength(0);
  });
});
