import { describe, expect, it } from "vitest";
import type { VirtualNode } from "../snapshot/virtual-node.ts";
import { buildPageModel } from "./page-model.ts";
import { MAX_QUERY_RESULTS } from "@crumbs/schemas/browser-action";
import { indexPage, MAX_DOCS } from "./search.ts";
import { refOf, shopPage } from "./shop-page.fixture.ts";

describe("query over a storefront", () => {
  const tree = shopPage();
  const index = indexPage(buildPageModel(tree));
  const top = (q: string, n = 3) => index.search(q, n).results.map((r) => r.ref);

  it.each([
    ["the checkout button", "button", "Proceed to checkout"],
    ["email field", "textbox", "Email"],
    ["search box", "searchbox", "Search products"],
    ["sign in", "link", "Sign in"],
    ["newsletter subscribe", "button", "Subscribe"],
    ["topic dropdown", "combobox", "Topic"],
    ["deals", "link", "Deals"],
    ["careers link in the footer", "link", "Careers"],
    ["your name", "textbox", "Your name"],
  ])("%s finds %s %s first", (q, role, name) => {
    expect(top(q, 1)).toEqual([refOf(tree, role, name)]);
  });

  it("answers with role, name, a score and why", () => {
    const [best] = index.search("the checkout button").results;
    expect(best).toMatchObject({ role: "button", name: "Proceed to checkout" });
    expect(best!.score).toBeGreaterThan(0);
    expect(best!.reason).toContain('name has "checkout"');
    expect(best!.reason).toContain("a button");
  });

  it("finds the right card's button by the product it is beside", () => {
    const [best] = index.search("add product number 4 to cart").results;
    expect(best).toMatchObject({ role: "button", name: "Add to cart" });
    expect(best!.reason).toMatch(/near "Product number 4"/);
  });

  it("words that say nothing give nothing; the limit is bounded", () => {
    expect(index.search("the please click").results).toEqual([]);
    expect(index.search("product", 100).results.length).toBeLessThanOrEqual(MAX_QUERY_RESULTS);
    expect(index.search("product", 2).results).toHaveLength(2);
  });

  it("marks secret fields so an agent knows it may not type there", () => {
    const login: VirtualNode = { role: "generic", children: [{ role: "textbox", name: "Password", ref: "e1", type: "password", states: { secret: true } }] };
    expect(indexPage(buildPageModel(login)).search("password field").results[0]).toMatchObject({ ref: "e1", secret: true });
  });
});

describe("bounds", () => {
  it(`indexes at most ${MAX_DOCS} elements and says how many it left out`, () => {
    const many: VirtualNode = { role: "generic", children: Array.from({ length: MAX_DOCS + 10 }, (_, i) => ({ role: "button", name: `Do ${i}`, ref: `e${i}` })) };
    const index = indexPage(buildPageModel(many));
    expect(index.indexed).toBe(MAX_DOCS);
    expect(index.search("do").not_indexed).toBe(10);
  });
});
