import { PCD_LIMITS, pcdSchema } from "@crumbs/schemas/pcd";
import { estimateTokens } from "@crumbs/schemas/tokens";
import { describe, expect, it } from "vitest";
import type { VirtualNode } from "../snapshot/virtual-node.ts";
import { formPurpose } from "./form-purpose.ts";
import { buildPcd } from "./pcd.ts";
import { refOf, shopPage } from "./shop-page.fixture.ts";

const page = { url: "https://shop.test/?q=1", title: "Shop" };

describe("the pcd of a storefront", () => {
  const tree = shopPage();
  const pcd = buildPcd(tree, page);

  it("is valid against the contract and small", () => {
    expect(pcdSchema.safeParse(pcd).success).toBe(true);
    expect(pcd).toMatchObject({ url: page.url, origin: "https://shop.test", title: "Shop" });
    expect(estimateTokens(JSON.stringify(pcd))).toBeLessThan(1000);
  });

  it("names the landmarks once each", () => {
    expect(pcd.landmarks).toEqual([
      { role: "banner" },
      { role: "navigation", label: "Primary" },
      { role: "search" },
      { role: "main" },
      { role: "form", label: "Newsletter" },
      { role: "contentinfo" },
    ]);
  });

  it("sees a sign-in link and no sign-out: logged out", () => {
    expect(pcd.loginState).toBe("out");
  });

  it("lists forms with their fields, purpose and submit button, by the snapshot's refs", () => {
    const [search, newsletter] = pcd.forms;
    expect(search).toMatchObject({ purpose: "search", landmark: "banner", submit: { ref: refOf(tree, "button", "Search"), label: "Search" } });
    expect(search!.fields).toEqual([{ ref: refOf(tree, "searchbox", "Search products"), label: "Search products", type: "search" }]);
    expect(newsletter).toMatchObject({ label: "Newsletter", purpose: "newsletter", landmark: "main", submit: { label: "Subscribe" } });
    expect(newsletter!.fields.map((f) => [f.label, f.type, f.required ?? false])).toEqual([
      ["Email", "email", true],
      ["Your name", "text", false],
      ["Topic", "select", false],
    ]);
  });

  it("makes the product cards one collection: a template with the first card's refs, a count and samples", () => {
    expect(pcd.collections).toHaveLength(2);
    const [products, footer] = pcd.collections;
    expect(products).toMatchObject({ id: "c1", label: "Products", itemRole: "article", count: 6, samples: ["Product number 0", "Product number 1", "Product number 2"] });
    expect(products!.template).toEqual([
      { role: "link", ref: refOf(tree, "link", "Product number 0") },
      { role: "button", label: "Add to cart", ref: refOf(tree, "button", "Add to cart") },
      { role: "checkbox", label: "Compare", ref: refOf(tree, "checkbox", "Compare") },
    ]);
    expect(footer).toMatchObject({ itemRole: "listitem", count: 5, template: [{ role: "link" }] });
    // The last product's heading is in main: it does not name the footer's list.
    expect(footer!.label).toBeUndefined();
  });

  it("shows each fact once: no form field, submit button or card action among the actions; twins counted", () => {
    const labels = pcd.actions.map((a) => a.label);
    for (const shown of ["Email", "Subscribe", "Search", "Add to cart", "Compare", "Product number 3", "Careers"]) expect(labels).not.toContain(shown);
    expect(pcd.actions.filter((a) => a.label === "Proceed to checkout")).toEqual([
      { ref: refOf(tree, "button", "Proceed to checkout"), label: "Proceed to checkout", role: "button", landmark: "main", count: 2 },
    ]);
    expect(pcd.actions.find((a) => a.label === "Sign in")).toMatchObject({ role: "link", kind: "auth", landmark: "banner", aboveFold: true });
    expect(pcd.actions.find((a) => a.label === "Deals")).toMatchObject({ kind: "navigate", landmark: 'navigation "Primary"' });
  });

  it("is deterministic", () => {
    expect(buildPcd(shopPage(), page)).toEqual(pcd);
  });
});

describe("caps", () => {
  it("keeps at most 30 actions, the main content's and the visible ones first, and counts what it cut", () => {
    const links = (n: number, where: string, vp: number): VirtualNode[] =>
      Array.from({ length: n }, (_, i) => ({ role: "link", name: `${where} ${i}`, ref: `e${where.length}${i}`, href: `/${i}`, vp }));
    const tree: VirtualNode = {
      role: "generic",
      children: [
        { role: "contentinfo", children: links(40, "footer", 2000) },
        { role: "main", children: [...links(10, "main", 0), ...links(10, "below", 800)] },
      ],
    };
    const pcd = buildPcd(tree, page);
    expect(pcd.actions).toHaveLength(PCD_LIMITS.actions);
    expect(pcd.truncated).toEqual({ actions: 60 - PCD_LIMITS.actions });
    const labels = pcd.actions.map((a) => a.label);
    expect(labels.filter((l) => l.startsWith("main"))).toHaveLength(10);
    expect(labels.filter((l) => l.startsWith("below"))).toHaveLength(10);
    // Kept in document order.
    expect(labels[0]).toBe("footer 0");
  });

  it("keeps at most 20 fields over all forms", () => {
    const fields: VirtualNode[] = Array.from({ length: 30 }, (_, i) => ({ role: "textbox", name: `Field ${i}`, ref: `e${i}`, type: "text" }));
    const pcd = buildPcd({ role: "generic", children: [{ role: "generic", tag: "form", children: fields }] }, page);
    expect(pcd.forms[0]!.fields).toHaveLength(PCD_LIMITS.fields);
    expect(pcd.truncated).toEqual({ fields: 10 });
  });
});

describe("login state and form purpose", () => {
  const withLinks = (...names: string[]): VirtualNode => ({ role: "generic", children: names.map((n, i) => ({ role: "link", name: n, ref: `e${i}` })) });
  it("sign out means logged in; sign in, register or a password field mean logged out; else unknown", () => {
    expect(buildPcd(withLinks("My orders", "Sign out"), page).loginState).toBe("in");
    expect(buildPcd(withLinks("Log in", "Register"), page).loginState).toBe("out");
    expect(buildPcd(withLinks("Docs"), page).loginState).toBe("unknown");
    const password: VirtualNode = { role: "generic", children: [{ role: "textbox", name: "Password", ref: "e1", type: "password", states: { secret: true } }] };
    expect(buildPcd(password, page).loginState).toBe("out");
  });

  it.each([
    [{ fields: [{ role: "textbox", type: "email", label: "Email" }, { role: "textbox", type: "password", label: "Password", secret: true }], submitLabel: "Sign in" }, "login"],
    [{ fields: [{ role: "textbox", type: "password", label: "Password" }, { role: "textbox", type: "password", label: "Repeat" }] }, "signup"],
    [{ fields: [{ role: "searchbox", type: "search", label: "Query" }] }, "search"],
    [{ fields: [{ role: "textbox", type: "text", label: "Card number", secret: true }], submitLabel: "Pay now" }, "checkout"],
    [{ fields: [{ role: "textbox", type: "email", label: "Email" }], submitLabel: "Subscribe" }, "newsletter"],
    [{ fields: [{ role: "textbox", type: "textarea", label: "Your message" }], submitLabel: "Send" }, "contact"],
    [{ fields: [{ role: "checkbox", type: "checkbox", label: "Dark mode" }] }, "other"],
  ])("%j is a %s form", (facts, purpose) => {
    expect(formPurpose(facts)).toBe(purpose);
  });
});
