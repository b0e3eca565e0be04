import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { waitFor } from "@crumbs/testkit";
import { actionResult, chatMessage, installPageAssistant, listAll, pageContext, startStack, startStackRunner, waitForCount, waitForHandled, type TestStack } from "./stack.ts";

// The runner's side of the user staying in control: a value for a secret field is refused before
// it is written, and a task the user stopped takes no further step and is recorded as cancelled.

let s: TestStack;
let runner: Runner;
beforeAll(async () => {
  s = await startStack();
  runner = await startStackRunner(s, {
    modelTimeoutMs: 3_000,
    logger: silentLogger,
  });
  await installPageAssistant(s.client, runner);
});
afterAll(async () => {
  await runner?.close();
  await s?.close();
});

describe("secrets", () => {
  it("a fill into a field the page context marks secret is written without its value and answered blocked_by_policy", async () => {
    const page = pageContext("ext-secret", "Sign in");
    page.context.dom.interactiveElements = { e12: { role: "button", name: "Get started" }, e4: { role: "textbox", name: "Password", secret: true } } as never;
    page.context.snapshot.text += '\n- textbox "Password" [ref=e4] [secret]';
    await s.client.create(page);
    const secret = "hunter2-do-not-store";
    s.fake.queue([
      { kind: "tools", calls: [{ name: "browser_fill", arguments: { ref: "e4", value: secret }, id: "call_pw" }, { name: "browser_click", arguments: { ref: "e12" }, id: "call_go" }] },
      { kind: "text", content: "Please type your password yourself." },
    ]);
    const before = s.fake.requests.length;
    await s.client.create(chatMessage("sign me in", "s-secret", ["extension:ext-secret"]));
    const actions = await waitForCount(s.client, "browser.action.v1", 2, "session:s-secret");
    const fill = actions.find((a) => a.context.action === "fill")!;
    expect(fill.context).toMatchObject({ params: { ref: "e4", value: "(withheld: not stored)" }, refused: { code: "blocked_by_policy" } });
    expect(fill.tags).not.toContain("extension:ext-secret");
    expect(actions.find((a) => a.context.action === "click")!.tags).toContain("extension:ext-secret");
    // The click still waits for a browser: answer it as the extension would.
    const click = actions.find((a) => a.context.action === "click")!;
    await s.client.create(
      actionResult(click, ["session:s-secret"], { title: "ok", observation: { url: "https://example.com/", title: "x", url_changed: false } }),
    );
    await waitForCount(s.client, "agent.response.v1", 1, "session:s-secret");
    const second = s.fake.requests[before + 1]!;
    const tool = second.body.messages.find((m) => m.role === "tool" && m.tool_call_id === "call_pw");
    expect(String(tool?.content)).toMatch(/blocked_by_policy.*Ask the user to fill it in themselves/);
    const everything = JSON.stringify([...(await listAll(s.client, "browser.action.v1")), ...(await listAll(s.client, "browser.action.result.v1"))]);
    expect(everything).not.toContain(secret);
    expect(JSON.stringify(second.body.messages)).not.toContain(secret); // nor in the conversation rebuilt from breadcrumbs
  });
});

describe("stop", () => {
  it("a cancel records the task cancelled at once; a late result takes no further step", async () => {
    await s.client.create(pageContext("ext-stop"));
    s.fake.queue([{ kind: "tools", calls: [{ name: "browser_click", arguments: { ref: "e12" }, id: "call_1" }] }], { kind: "tools", calls: [{ name: "browser_click", arguments: { ref: "e12" } }] });
    const msg = await s.client.create(chatMessage("keep clicking", "s-stop", ["extension:ext-stop"]));
    const [action] = await waitForCount(s.client, "browser.action.v1", 1, "session:s-stop");
    const requests = s.fake.requests.length;
    const t0 = Date.now();
    await s.client.create({
      schema_name: "browser.task.cancel.v1",
      title: "stopped",
      tags: ["browser:task-cancel", "session:s-stop", "extension:ext-stop", "agent:page-assistant"],
      context: { session_id: "s-stop", agent_id: "page-assistant", root: { id: msg.id, version: 1 }, reason: "the user pressed Stop", dropped: [String(action!.context.request_id)] },
    });
    const [cancelled] = await waitForCount(s.client, "agent.response.v1", 1, "session:s-stop", 2_000);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(cancelled!.context).toMatchObject({ status: "cancelled", in_reply_to: { id: msg.id, version: 1 } });
    const late = await s.client.create(
      actionResult(action!, ["session:s-stop"], {
        title: "cancelled",
        status: "error",
        code: "cancelled",
        message: "stopped",
        observation: { url: "", title: "", url_changed: false },
      }),
    );
    // The runner's results consumer acked the late result, which it does after its step: no step came of it.
    await waitForHandled(s, "crumbs_runner_action_results", late);
    expect(s.fake.requests.length).toBe(requests); // no model call after the stop
    expect(await listAll(s.client, "browser.action.v1", "session:s-stop")).toHaveLength(1);
    expect(await listAll(s.client, "agent.response.v1", "session:s-stop")).toHaveLength(1);
  });

  it("a stop before the browser saw any action (the session, no task named) still ends the task when the model answers", async () => {
    await s.client.create(pageContext("ext-early"));
    s.fake.queue([{ kind: "slow", delayMs: 1_000, then: { kind: "tools", calls: [{ name: "browser_click", arguments: { ref: "e12" } }] } }]);
    const asked = s.fake.requests.length;
    await s.client.create(chatMessage("click it", "s-early", ["extension:ext-early"]));
    await waitFor(() => s.fake.requests.length > asked, { message: "the model thinking" });
    await s.client.create({
      schema_name: "browser.task.cancel.v1",
      title: "stopped",
      tags: ["browser:task-cancel", "session:s-early"],
      context: { session_id: "s-early", reason: "the user pressed Stop" },
    });
    const [cancelled] = await waitForCount(s.client, "agent.response.v1", 1, "session:s-early", 5_000);
    expect(cancelled!.context).toMatchObject({ status: "cancelled" });
    expect(await listAll(s.client, "browser.action.v1", "session:s-early")).toHaveLength(0);
    // A new message in the same session is a new task: the old stop does not cancel it.
    s.fake.queue([{ kind: "text", content: "Hello again." }]);
    await s.client.create(chatMessage("hi again", "s-early", ["extension:ext-early"]));
    const answers = await waitForCount(s.client, "agent.response.v1", 2, "session:s-early", 5_000);
    expect(answers.map((a) => a.context.content)).toContain("Hello again.");
  });
});
