import type { VirtualNode } from "../snapshot/virtual-node.ts";

// A storefront as the walker gives it (VirtualNode tree, refs as the snapshot prints them), for the
// unit tests of the page model, the pcd and the query index: a header with navigation, sign-in and a
// search form, a newsletter form, a grid of product cards, a cart button and a footer list.

let next = 0;
const ref = () => `e${++next}`;

const link = (name: string, href: string, vp = 0): VirtualNode => ({ role: "link", name, ref: ref(), href, vp });
const button = (name: string, extra: Partial<VirtualNode> = {}): VirtualNode => ({ role: "button", name, ref: ref(), tag: "button", type: "button", vp: 0, ...extra });
const text = (t: string, vp = 0): VirtualNode => ({ role: "text", text: t, vp });

function card(i: number): VirtualNode {
  const vp = i < 4 ? 0 : 300 + i * 50;
  return {
    role: "article",
    tag: "article",
    vp,
    children: [
      { role: "img", name: `Product ${i}`, vp },
      { role: "heading", name: `Product number ${i}`, states: { level: 3 }, vp, children: [link(`Product number ${i}`, `/p/${i}`, vp)] },
      text(`Price: $${(9 + i * 3.7).toFixed(2)} in stock`, vp),
      button("Add to cart", { vp }),
      { role: "checkbox", name: "Compare", ref: ref(), tag: "input", type: "checkbox", vp },
    ],
  };
}

export function shopPage(cards = 6): VirtualNode {
  next = 0;
  return {
    role: "generic",
    tag: "body",
    vp: 0,
    children: [
      {
        role: "banner",
        tag: "header",
        vp: 0,
        children: [
          { role: "navigation", name: "Primary", tag: "nav", vp: 0, children: [link("Home", "/"), link("Deals", "/deals"), link("Help", "/help")] },
          link("Sign in", "/login"),
          {
            role: "search",
            tag: "search",
            vp: 0,
            children: [
              { role: "searchbox", name: "Search products", ref: ref(), tag: "input", type: "search", vp: 0 },
              button("Search", { type: "submit" }),
            ],
          },
        ],
      },
      {
        role: "main",
        tag: "main",
        vp: 0,
        children: [
          { role: "heading", name: "Shop", states: { level: 1 }, vp: 0 },
          {
            role: "form",
            name: "Newsletter",
            tag: "form",
            vp: 0,
            children: [
              { role: "textbox", name: "Email", ref: ref(), tag: "input", type: "email", states: { required: true }, vp: 0 },
              { role: "textbox", name: "Your name", ref: ref(), tag: "input", type: "text", vp: 0 },
              { role: "combobox", name: "Topic", ref: ref(), tag: "select", type: "select", value: "News", vp: 0 },
              button("Subscribe", { type: "submit" }),
            ],
          },
          { role: "heading", name: "Products", states: { level: 2 }, vp: 0 },
          // The grid's div has no role, name or ref: the walker leaves it out and keeps its cards.
          ...Array.from({ length: cards }, (_, i) => card(i)),
          button("Proceed to checkout", { vp: 900 }),
          button("Proceed to checkout", { vp: 900 }),
        ],
      },
      {
        role: "contentinfo",
        tag: "footer",
        vp: 1500,
        children: [
          {
            role: "list",
            tag: "ul",
            vp: 1500,
            children: ["About us", "Careers", "Contact", "Privacy", "Terms"].map((n, i) => ({
              role: "listitem",
              tag: "li",
              vp: 1500,
              children: [link(n, `/f/${i}`, 1500)],
            })),
          },
        ],
      },
    ],
  };
}

/** The ref of the first node with this role and name. */
export function refOf(root: VirtualNode, role: string, name: string): string {
  const stack = [root];
  while (stack.length) {
    const n = stack.shift()!;
    if (n.role === role && n.name === name && n.ref) return n.ref;
    stack.push(...(n.children ?? []));
  }
  throw new Error(`no ${role} "${name}"`);
}
