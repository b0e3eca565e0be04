import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { pcdSchema, type Pcd } from "@crumbs/schemas";
import { startHarness, type Harness } from "./harness.ts";
import { ok, refIn } from "./actions-helpers.ts";

// The page capability descriptor and `query` in real Chromium, on the 800-node storefront
// (generated-pages.ts, typicalPage) and the sign-in form: built from the snapshot's walk, so every
// ref in them is a snapshot ref an action takes as is.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

interface SnapWithPcd {
  text: string;
  truncated: boolean;
  pcd: Pcd;
  pcd_ms: number;
}

const snapWithPcd = (max_tokens = 50_000) => ok<SnapWithPcd>(h, "snapshot", { pcd: true, max_tokens });

describe("the pcd of the 800-node storefront", () => {
  let page: Page;
  let snap: SnapWithPcd;
  beforeAll(async () => {
    page = await h.openFixture("gen/typical-800.html");
    snap = await snapWithPcd();
  });

  it("is valid, bounded and compact, and took a few ms beside the walk", () => {
    expect(pcdSchema.safeParse(snap.pcd).success).toBe(true);
    expect(snap.pcd).toMatchObject({ url: page.url(), origin: new URL(page.url()).origin, title: "Typical page", loginState: "out" });
    expect(JSON.stringify(snap.pcd).length).toBeLessThan(8_000);
    expect(snap.pcd_ms).toBeGreaterThan(0);
  });

  it("has the landmarks, the search and newsletter forms, the cart's checkout and the product grid as one collection", () => {
    const { pcd } = snap;
    expect(pcd.landmarks.map((l) => l.role)).toEqual(["banner", "navigation", "search", "main", "form", "complementary", "contentinfo"]);
    expect(pcd.forms.map((f) => [f.purpose, f.fields.map((x) => x.type)])).toEqual([
      ["search", ["search"]],
      ["newsletter", ["email", "text", "select", "textarea"]],
    ]);
    expect(pcd.actions.find((a) => a.label === "Checkout")).toMatchObject({ role: "button", landmark: 'complementary "Cart"' });
    expect(pcd.actions.find((a) => a.label === "Sign in")).toMatchObject({ kind: "auth", landmark: "banner" });
    const products = pcd.collections.find((c) => c.itemRole === "article")!;
    expect(products).toMatchObject({ label: "Products", count: 32, samples: ["Product number 0", "Product number 1", "Product number 2"] });
    expect(products.template.map((t) => [t.role, t.label])).toEqual([
      ["link", undefined],
      ["button", "Add to cart"],
      ["checkbox", "Compare"],
    ]);
    expect(pcd.collections.find((c) => c.itemRole === "listitem")).toMatchObject({ count: 24 });
  });

  it("uses the snapshot's refs: each one is on the snapshot's line for that element", () => {
    const refs = [
      ...snap.pcd.actions.map((a) => [a.ref, a.label]),
      ...snap.pcd.forms.flatMap((f) => f.fields.map((x) => [x.ref, x.label])),
      ...snap.pcd.collections.flatMap((c) => c.template.filter((t) => t.label).map((t) => [t.ref!, t.label!])),
    ];
    expect(refs.length).toBeGreaterThan(10);
    for (const [ref, label] of refs) {
      const line = snap.text.split("\n").find((l) => l.includes(`[ref=${ref}]`));
      expect(line, `${ref} ${label}`).toContain(label!.slice(0, 40));
    }
  });

  it("a pcd ref acts directly: the checkout button is clicked", async () => {
    await page.evaluate(() => document.querySelector("aside button")!.addEventListener("click", () => ((window as unknown as { checkedOut: boolean }).checkedOut = true)));
    await ok(h, "click", { ref: snap.pcd.actions.find((a) => a.label === "Checkout")!.ref });
    expect(await page.evaluate(() => (window as unknown as { checkedOut?: boolean }).checkedOut)).toBe(true);
  });

  it("the sign-in page: logged out, a login form with its secret fields marked", async () => {
    await h.openFixture("snap-form.html");
    const { pcd } = await snapWithPcd();
    const login = pcd.forms.find((f) => f.label === "Sign in")!;
    expect(login).toMatchObject({ purpose: "login", landmark: "main", submit: { label: "Submit" } });
    expect(login.fields.filter((f) => f.secret).map((f) => f.label)).toEqual(["Password", "Code"]);
    expect(pcd.loginState).toBe("out");
    expect(JSON.stringify(pcd)).not.toContain("hunter2");
  });
});

describe("the pcd of a page with iframes", () => {
  it("is built by the worker from the stitched tree: the frames' fields and buttons with their frame refs", async () => {
    const page = await h.openFixture("actions-iframes.html");
    await page.waitForFunction(() => document.querySelectorAll("iframe").length === 2);
    await Promise.all(page.frames().map((f) => f.waitForLoadState("load")));
    const { pcd, text } = await snapWithPcd();
    const fields = pcd.forms.flatMap((f) => f.fields).filter((f) => f.label === "Frame field");
    expect(fields.map((f) => f.ref)).toEqual([expect.stringMatching(/^f\d+e\d+$/), expect.stringMatching(/^f\d+e\d+$/)]);
    expect(pcd.actions.find((a) => a.label === "Frame button")).toMatchObject({ count: 2, ref: expect.stringMatching(/^f\d+e\d+$/) });
    for (const f of fields) expect(text).toContain(`[ref=${f.ref}]`);
  });
});

describe("query on the 800-node storefront", () => {
  let text: string;
  beforeAll(async () => {
    await h.openFixture("gen/typical-800.html");
    text = (await ok<{ text: string }>(h, "snapshot", { max_tokens: 50_000 })).text;
  });

  // What people type, and the snapshot line of the element they mean.
  const phrasings: Array<[string, string | RegExp]> = [
    ["the checkout button", 'button "Checkout"'],
    ["email field", 'textbox "Email"'],
    ["search box", 'searchbox "Search products"'],
    ["sign in", 'link "Sign in"'],
    ["subscribe to the newsletter", 'button "Subscribe"'],
    ["your name", 'textbox "Name"'],
    ["note", 'textbox "Note"'],
    ["section 7 in the menu", 'link "Section 7"'],
    ["footer link 12", 'link "Footer 12"'],
    ["product number 5", 'link "Product number 5"'],
  ];

  it.each(phrasings)("%s: the element is among the top 3", async (query, line) => {
    const want = refIn(text, line);
    const data = await ok<{ results: Array<{ ref: string; role: string; name: string; score: number; reason: string }> }>(h, "query", { query, limit: 3 });
    expect(data.results.map((r) => r.ref), JSON.stringify(data.results)).toContain(want);
    const hit = data.results.find((r) => r.ref === want)!;
    expect(hit.reason.length).toBeGreaterThan(0);
  });

  it("the card's own button: 'add product number 7 to the cart' ranks that card's Add to cart above every other", async () => {
    const data = await ok<{ results: Array<{ ref: string; name: string; reason: string }> }>(h, "query", { query: "add product number 7 to the cart", limit: 3 });
    const lines = text.split("\n");
    const card = lines.findIndex((l) => l.includes('link "Product number 7"'));
    const own = lines.slice(card).find((l) => l.includes('button "Add to cart"'))!.match(/\[ref=(e\d+)\]/)![1];
    // The product's own link may come first (its name holds "product number 7"); its button is next.
    const buttons = data.results.filter((r) => r.name === "Add to cart");
    expect(buttons[0]!.ref).toBe(own);
    expect(data.results.slice(0, 2).map((r) => r.ref)).toContain(own);
    expect(buttons[0]!.reason).toContain('near "Product number 7"');
  });

  it("answers within its bounds", async () => {
    const data = await ok<{ results: unknown[]; indexed: number }>(h, "query", { query: "product", limit: 20 });
    expect(data.results).toHaveLength(20);
    expect(data.indexed).toBeGreaterThan(100);
    const err = await h.execute({ type: "query", params: { query: "x", limit: 21 } });
    expect(err).toMatchObject({ success: false, code: "invalid_params" });
  });
});
