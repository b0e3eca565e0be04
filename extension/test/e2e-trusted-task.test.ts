import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { waitFor } from "@crumbs/testkit";
import { refInPrompt, resultsFor, type ResultContext } from "./e2e/actions.ts";
import { agentAnswer, chat, ofSession, openForAgent, startControlled } from "./e2e/control.ts";
import type { E2E } from "./e2e/stack.ts";

// A whole agent task on a page whose controls answer only trusted events (fixtures/actions-trusted.html, served as gen/trusted.html), with the fake
// model: without trusted input the agent's fill comes back failed with the reason and the hint, and nothing is
// saved; once the user lists the site in the options page, the same task fills and saves.

let e: E2E;
let panel: Page;
let page: Page;
beforeAll(async () => {
  ({ e, panel } = await startControlled());
  page = await openForAgent(e, "gen/trusted.html", "Save");
});
afterAll(async () => {
  await e?.close();
});

/** The model fills the name and clicks Save, then answers with what the results said. */
function script(): void {
  e.fake.setScript((req) => {
    const results = req.body.messages.filter((m) => m.role === "tool");
    if (results.length === 0) {
      return {
        kind: "tools",
        calls: [
          { name: "browser_fill", arguments: { ref: refInPrompt(req, "textbox", "Name"), value: "Alice" } },
          { name: "browser_click", arguments: { ref: refInPrompt(req, "button", "Save") } },
        ],
      };
    }
    return { kind: "text", content: `Results: ${results.map((m) => m.content).join(" | ")}` };
  });
}

async function resultsOf(session: string): Promise<Record<string, ResultContext>> {
  const actions = await ofSession(e, "browser.action.v1", session);
  const out: Record<string, ResultContext> = {};
  for (const a of actions) {
    const [r] = await waitFor(async () => ((await resultsFor(e, String(a.context.request_id))).length ? resultsFor(e, String(a.context.request_id)) : undefined), {
      message: `result of ${String(a.context.action)}`,
    });
    out[String(a.context.action)] = r!.context as unknown as ResultContext;
  }
  return out;
}

describe("an agent task on a page that answers only trusted input", () => {
  it("fails clearly without trusted input: the fill says the page put the value back and how to turn trusted input on", async () => {
    script();
    await page.bringToFront();
    const session = await chat(panel, "Put Alice in the name and save");
    await agentAnswer(e, session, (b) => String(b.context.content).startsWith("Results:"));
    const results = await resultsOf(session);
    expect(results.fill).toMatchObject({ status: "error", code: "not_actionable" });
    expect(results.fill!.message).toMatch(/did not keep "Alice".*turn on trusted input for 127\.0\.0\.1 in the crumbs options page/);
    expect(results.click).toMatchObject({ status: "ok", data: { page_changed: false } });
    expect(await page.locator("#status").textContent()).toBe("Not saved");
  });

  it("succeeds with the site listed under trusted input in the options page", async () => {
    const options = await e.extensionPage("options.html");
    await options.locator("#trustedInput").fill("127.0.0.1");
    await options.locator("#save-trusted").click();
    await options.locator("#trusted-message.ok").waitFor();
    await options.close();
    script();
    await page.bringToFront();
    const session = await chat(panel, "Put Alice in the name and save");
    // The mask is up while the agent acts (it blocks the user's own clicks): the agent's trusted click passes it.
    await page.locator("#status", { hasText: "Saved Alice" }).waitFor({ timeout: 20_000 });
    await agentAnswer(e, session, (b) => String(b.context.content).startsWith("Results:"));
    const results = await resultsOf(session);
    expect(results.fill).toMatchObject({ status: "ok", data: { input: "trusted", value: "Alice" } });
    expect(results.click).toMatchObject({ status: "ok", data: { input: "trusted" } });
  });
});
