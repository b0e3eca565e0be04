import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type ChromiumWithExtension } from "@crumbs/testkit";
import { startStack, type TestStack } from "./stack.ts";

describe("the API reference page at /docs", () => {
  let s: TestStack;
  let url: string;
  let browser: ChromiumWithExtension;
  beforeAll(async () => {
    s = await startStack();
    url = await s.serve();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.dispose();
  });

  it("renders every operation from /openapi.json in Chromium and loads nothing from anywhere but the API", async () => {
    const page = await browser.context.newPage();
    const requested: string[] = [];
    const refused: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    const res = await page.goto(`${url}/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-security-policy"]).toContain("connect-src 'self'");
    // The reference lists the operations by their summaries, e.g. createBreadcrumb's.
    const shows = (text: string) => page.waitForFunction((t) => document.body.innerText.includes(t), text, { timeout: 30_000 });
    await shows("Create a breadcrumb");
    await shows("Update a breadcrumb at the version you read");
    for (const tag of ["events", "agents", "keys", "nats", "outbox", "operations"]) await shows(tag);
    expect(requested.filter((u) => u.includes("/openapi.json")).length).toBeGreaterThan(0);
    const foreign = requested.filter((u) => !u.startsWith(url) && !u.startsWith("data:") && !u.startsWith("blob:"));
    expect(foreign).toEqual([]);
    expect(refused).toEqual([]);
    await page.close();
  });
});
