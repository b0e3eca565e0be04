import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:14px sans-serif;margin:0 16px} .grid{display:grid;grid-template-columns:repeat(4,1fr);gap:8px}
.card{border:1px solid #ccc;padding:8px} nav a{margin-right:8px}</style></head><body>${body}</body></html>`;
}

/**
 * A storefront-like page with about 800 visible nodes: the "typical page" of the snapshot's time budget,
 * and the page `query` is measured on (a header with navigation, search and sign-in, a newsletter form,
 * product cards, a cart with its checkout button, a footer of links).
 */
export function typicalPage(cards = 32): string {
  const nav = Array.from({ length: 12 }, (_, i) => `<a href="/section/${i}">Section ${i}</a>`).join("");
  const grid = Array.from(
    { length: cards },
    (_, i) => `<article class="card"><img alt="Product ${i}" width="80" height="60" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<h3><a href="/p/${i}">Product number ${i}</a></h3><p>Price: <b>$${(i * 3.7 + 9).toFixed(2)}</b> <span>in stock</span></p>
<button type="button">Add to cart</button> <label><input type="checkbox"> Compare</label></article>`,
  ).join("");
  const prose = Array.from({ length: 20 }, (_, i) => `<p>Paragraph ${i} with <a href="/more/${i}">a link</a> and <em>some emphasis</em> to read.</p>`).join("");
  const form = `<form aria-label="Newsletter"><label>Email <input type="email" name="email"></label>
<label>Name <input name="name" placeholder="Your name"></label><select name="topic"><option>News</option><option>Offers</option></select>
<textarea name="note" placeholder="Note"></textarea><button>Subscribe</button></form>`;
  const footer = Array.from({ length: 24 }, (_, i) => `<li><a href="/f/${i}">Footer ${i}</a></li>`).join("");
  const search = `<form role="search" action="/search"><input type="search" name="q" aria-label="Search products"> <button>Search</button></form>
<a href="/login">Sign in</a>`;
  const cart = `<aside aria-label="Cart"><h2>Your cart</h2><p>2 items, $23.40</p><button type="button">Checkout</button></aside>`;
  return page("Typical page", `<header><nav>${nav}</nav>${search}</header><main><h1>Shop</h1>${form}<h2>Products</h2>
<div class="grid">${grid}</div><h2>About</h2>${prose}</main>${cart}<footer><ul>${footer}</ul></footer>`);
}

/** 10,000 elements: a stress page for walk time and for the budget's cut. */
export function hugePage(elements = 10_000): string {
  const rows: string[] = [];
  let count = 0;
  for (let s = 0; count < elements; s++) {
    rows.push(`<section aria-label="Block ${s}"><h2>Block ${s}</h2><ul>`);
    count += 3;
    for (let i = 0; i < 40 && count < elements; i++) {
      rows.push(`<li><span>Item ${s}.${i}</span> <a href="/i/${s}/${i}">open</a> <button>Do ${i}</button></li>`);
      count += 4;
    }
    rows.push("</ul></section>");
  }
  return page("Huge page", rows.join(""));
}

export function longTable(rows = 1000): string {
  const body = Array.from(
    { length: rows },
    (_, i) => `<tr><td>${i}</td><td><a href="/row/${i}">Row ${i}</a></td><td>Value ${i * 7}</td><td>${i % 2 ? "yes" : "no"}</td><td><button>Edit</button></td></tr>`,
  ).join("");
  return page("Long table", `<h1>Orders</h1><table><caption>Orders</caption><thead><tr><th>#</th><th>Name</th><th>Value</th><th>Paid</th><th></th></tr></thead><tbody>${body}</tbody></table>`);
}

export function longList(items = 2000): string {
  const body = Array.from({ length: items }, (_, i) => `<li><a href="/result/${i}">Result ${i}</a> snippet text ${i}</li>`).join("");
  return page("Long list", `<h1>Search</h1><input type="search" aria-label="Query" value="shoes"><ul aria-label="Results">${body}</ul>`);
}

const bundles = new Map<string, Promise<string>>();

/** A fixture's client script (real React and the like) bundled once per test process. */
export function bundleClient(entry: string): Promise<string> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "iife",
      minify: true,
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "warning",
    }).then((r) => r.outputFiles[0]?.text ?? "");
    bundles.set(entry, bundle);
  }
  return bundle;
}

export const GENERATED: Record<string, () => string> = {
  "typical-800.html": () => typicalPage(),
  "nodes-10000.html": () => hugePage(),
  "nodes-20000.html": () => hugePage(20_000),
  "list-4000.html": () => longList(4000),
  "long-table.html": () => longTable(),
  "long-list.html": () => longList(),
};

export async function generatedPage(name: string): Promise<{ body: string; type: string } | undefined> {
  if (name === "react-form.js") return { body: await bundleClient(join(here, "react-form.client.js")), type: "text/javascript; charset=utf-8" };
  const make = GENERATED[name];
  return make ? { body: make(), type: "text/html; charset=utf-8" } : undefined;
}
