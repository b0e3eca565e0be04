import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { ok, refIn, run, snapshot } from "./actions-helpers.ts";

// A real React 19 app: its inputs are controlled (value comes from state), so a write React does not see is
// reverted on the next render. The app code lives in actions-react.html; React itself is bundled here.

let h: Harness;
let page: Page;

async function reactVendor(): Promise<string> {
  const out = await build({
    stdin: {
      contents: 'import * as React from "react"; import * as ReactDOMClient from "react-dom/client"; Object.assign(window, { React, ReactDOMClient });',
      resolveDir: dirname(dirname(fileURLToPath(import.meta.url))),
      loader: "js",
    },
    bundle: true,
    format: "iife",
    minify: true,
    write: false,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

beforeAll(async () => {
  h = await startHarness();
  const vendor = await reactVendor();
  await h.context.route("**/actions-react-vendor.js", (route) => route.fulfill({ body: vendor, contentType: "text/javascript" }));
  page = await h.openFixture("actions-react.html");
  await page.waitForSelector("#r-name");
});
afterAll(async () => {
  await h?.close();
});

const echo = () => page.textContent("#r-echo");

describe("React-controlled form", () => {
  it("fill updates React state, which renders the value elsewhere", async () => {
    const text = await snapshot(h);
    await ok(h, "fill", { ref: refIn(text, 'textbox "Full name"'), value: "Ada" });
    expect(await echo()).toContain("Hello Ada <");
    // A later re-render keeps the value: React's state holds it, not only the DOM.
    await ok(h, "check", { selector: { role: "checkbox", name: "I agree" } });
    expect(await page.inputValue("#r-name")).toBe("Ada");
    expect(await echo()).toContain("agree=true");
  });

  it("type appends through React's onChange, and React's own transform applies", async () => {
    await ok(h, "type", { selector: { role: "textbox", name: "Full name" }, value: " L." });
    expect(await echo()).toContain("Hello Ada L. <");
    const data = await ok(h, "type", { selector: { role: "textbox", name: "Email" }, value: "Ada@X.io" });
    expect(data.value).toBe("ada@x.io");
    expect(await echo()).toContain("<ada@x.io>");
  });

  it("select and submit go through React handlers", async () => {
    await ok(h, "select", { selector: { role: "combobox", name: "Size" }, value: "Large" });
    expect(await echo()).toContain("size=l");
    await ok(h, "click", { selector: { role: "button", name: "Send" } });
    expect(JSON.parse((await page.textContent("#r-submitted")) ?? "{}")).toEqual({ name: "Ada L.", email: "ada@x.io", size: "l", agree: true });
  });

  it("a button React re-mounted between snapshot and click: the click lands on the new one and says rebound", async () => {
    const text = await snapshot(h);
    const ref = refIn(text, 'button "Apply coupon"');
    const before = await page.$("section[aria-label=Promo] button");
    await page.evaluate(() => (window as unknown as { remountPromo(): void }).remountPromo());
    await page.waitForFunction((old) => !old?.isConnected, before);
    const result = await run(h, "click", { ref });
    expect(result).toMatchObject({ success: true, rebound: { ref: expect.stringMatching(/^e\d+$/) } });
    expect(result.rebound!.ref).not.toBe(ref);
    expect(await page.textContent("#r-coupon")).toBe("coupon applied on render 1");
  });

  it("fill replaces a React value entirely, including to empty", async () => {
    await ok(h, "fill", { selector: { role: "textbox", name: "Full name" }, value: "" });
    expect(await echo()).toContain("Hello stranger");
  });
});
