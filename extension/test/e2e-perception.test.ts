import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { RecordedRequest } from "@crumbs/testkit";
import { agentAnswer, chat, ofSession, openForAgent, startControlled } from "./e2e/control.ts";
import { livingContext, type E2E } from "./e2e/stack.ts";

// The whole stack: the page assistant on the fake model reads the page context (with its pcd, each
// fact once), calls browser_query for "the shipping options button", and clicks the ref it got back.
// Between the two the React page re-mounts that button: the click lands on the new one and the model
// reads `rebound: true` and the new ref in its tool message.

let e: E2E;
let panel: Page;
let page: Page;
beforeAll(async () => {
  ({ e, panel } = await startControlled());
  await fetch(e.url("gen/store.js")); // bundle the page's React once, outside the test
  page = await openForAgent(e, "store.html", "Shipping options");
});
afterAll(async () => {
  await e?.close();
});

interface QueryResult {
  data: { results: Array<{ ref: string; role: string; name: string; reason: string }> };
}

const toolMessages = (req: RecordedRequest) => req.body.messages.filter((m) => m.role === "tool");

describe("an agent perceives the page", () => {
  it("the living context carries the pcd, and the model's view of it says each fact once", async () => {
    const b = (await livingContext(e))!;
    const pcd = b.context.pcd as { actions: Array<{ label: string; ref: string }>; collections: Array<{ label?: string; count: number }> };
    expect(pcd.actions.map((a) => a.label)).toContain("Shipping options");
    expect(pcd.collections).toEqual([expect.objectContaining({ label: "Products", count: 3 })]);
    const res = await fetch(`${e.api.url}/v1/breadcrumbs/${b.id}?view=llm`, { headers: { authorization: "Bearer e2e-token-0123456789" } });
    const view = (await res.json()) as Record<string, unknown>;
    expect(view.pcd).toEqual(b.context.pcd);
    expect(view.content).toBeUndefined();
    expect(view.dom).toBeUndefined();
    expect(JSON.stringify(view.snapshot)).toContain("Shipping options");
  });

  it("browser_query finds the button, the page re-renders it, browser_click on the ref it found says rebound", async () => {
    let queried: string | undefined;
    e.fake.setScript(async (req) => {
      const tools = toolMessages(req);
      if (tools.length === 0) return { kind: "tools", calls: [{ name: "browser_query", arguments: { query: "the shipping options button" } }] };
      if (tools.length === 1) {
        const found = (JSON.parse(tools[0]!.content ?? "{}") as QueryResult).data.results[0]!;
        queried = found.ref;
        // The page re-renders between what the model read and what it does.
        const before = await page.$("aside button");
        await page.evaluate(() => (window as unknown as { rerenderCart(): void }).rerenderCart());
        await page.waitForFunction((old) => !old?.isConnected, before);
        return { kind: "tools", calls: [{ name: "browser_click", arguments: { ref: found.ref } }] };
      }
      return { kind: "text", content: "The shipping options are open: standard shipping takes 2 days." };
    });
    const before = e.fake.requests.length;
    const session = await chat(panel, "Show me the shipping options");
    await page.getByText("Standard shipping: 2 days (render 1)").waitFor({ timeout: 20_000 });
    await agentAnswer(e, session, (b) => String(b.context.content).includes("standard shipping"));

    const requests = e.fake.requests.slice(before);
    // The first request: the tools include query and details, the context shows the pcd.
    const tools = requests[0]!.body.tools!.map((t) => t.function.name);
    expect(tools).toEqual(expect.arrayContaining(["browser_query", "browser_details", "browser_click"]));
    const prompt = requests[0]!.body.messages.map((m) => m.content ?? "").join("\n");
    expect(prompt).toContain('"pcd"');
    expect(prompt).not.toContain("interactiveElements");
    expect(prompt).not.toContain("mainText");

    const [query, click] = (await ofSession(e, "browser.action.v1", session)).sort((a, b) => Number(a.context.task && (a.context.task as { step: number }).step) - Number((b.context.task as { step: number }).step));
    expect([query!.context.action, click!.context.action]).toEqual(["query", "click"]);
    expect(click!.context.params).toEqual({ ref: queried });
    const results = await ofSession(e, "browser.action.result.v1", session);
    const clickResult = results.find((r) => r.context.action_id === click!.id)!;
    expect(clickResult.context).toMatchObject({ status: "ok", rebound: true, ref: expect.stringMatching(/^e\d+$/) });
    expect(clickResult.context.ref).not.toBe(queried);
    // The model read it.
    const third = requests.find((r) => toolMessages(r).length === 2)!;
    const clickMessage = JSON.parse(toolMessages(third)[1]!.content ?? "{}") as Record<string, unknown>;
    expect(clickMessage).toMatchObject({ status: "ok", rebound: true, ref: clickResult.context.ref });
  });
});
