import type { Pcd, PcdAction } from "@crumbs/schemas";
import type { Emit, Outcome } from "./types.ts";

// A small account site as the controller sees it, page by page (the pcd the extension would build),
// and a browser that runs the controller's calls on it: for the controller's unit tests and the
// bench's skills-on/skills-off comparison, without Chromium. The same site, as real HTML, is served
// to the end-to-end test (agents/runner/test/site/).

const ORIGIN = "http://site.test";
const nav = (): PcdAction[] => [
  { ref: "e1", label: "Home", role: "link", kind: "navigate", landmark: "navigation" },
  { ref: "e2", label: "Products", role: "link", kind: "navigate", landmark: "navigation" },
  { ref: "e3", label: "Search", role: "link", kind: "navigate", landmark: "navigation" },
  { ref: "e4", label: "Account", role: "link", kind: "navigate", landmark: "navigation" },
  { ref: "e5", label: "Sign out", role: "link", kind: "auth", landmark: "navigation" },
];
const page = (path: string, title: string, extra: Partial<Pcd> = {}): Pcd => ({
  url: `${ORIGIN}${path}`,
  origin: ORIGIN,
  title,
  loginState: "in",
  landmarks: [{ role: "navigation" }, { role: "main" }],
  actions: nav(),
  forms: [],
  collections: [],
  ...extra,
});

export function fakeSitePages(months: { label: string; iso: string }[]): Record<string, Pcd> {
  return {
    "/login.html": {
      url: `${ORIGIN}/login.html`,
      origin: ORIGIN,
      title: "Sign in",
      loginState: "out",
      landmarks: [{ role: "main" }],
      actions: [],
      forms: [
        {
          id: "f1",
          purpose: "login",
          fields: [
            { ref: "e1", label: "Email", type: "email" },
            { ref: "e2", label: "Password", type: "password", secret: true },
          ],
          submit: { ref: "e3", label: "Sign in" },
        },
      ],
      collections: [],
    },
    "/home.html": page("/home.html", "Home"),
    "/account.html": page("/account.html", "Account", {
      actions: [...nav(), { ref: "e6", label: "Profile", role: "link", kind: "navigate", landmark: "navigation \"Account menu\"" }, { ref: "e7", label: "Billing", role: "link", kind: "navigate", landmark: "navigation \"Account menu\"" }, { ref: "e8", label: "Security", role: "link", kind: "navigate", landmark: "navigation \"Account menu\"" }],
    }),
    "/billing.html": page("/billing.html", "Billing", {
      actions: [...nav(), { ref: "e6", label: "Payment methods", role: "link", kind: "navigate" }, { ref: "e7", label: "Invoices", role: "link", kind: "navigate" }],
    }),
    "/invoices.html": page("/invoices.html", "Invoices", {
      collections: [{ id: "c1", label: "Invoices", itemRole: "row", count: months.length, template: [{ role: "cell" }, { role: "link", ref: "e20" }], samples: months.slice(0, 3).map((m) => m.label) }],
    }),
    "/search.html": page("/search.html", "Search", {
      forms: [{ id: "f1", purpose: "search", fields: [{ ref: "e6", label: "Search", type: "search" }], submit: { ref: "e7", label: "Search" } }],
    }),
    "/products.html": page("/products.html", "Products", {
      actions: [...nav(), { ref: "e9", label: "Next", role: "link", kind: "navigate" }],
      collections: [{ id: "c1", label: "Products", itemRole: "listitem", count: 10, template: [{ role: "link", ref: "e10" }], samples: ["Product 1", "Product 2", "Product 3"] }],
    }),
  };
}

/** Where each link goes, by label. */
const LINKS: Record<string, string> = {
  Home: "/home.html",
  Products: "/products.html",
  Search: "/search.html",
  Account: "/account.html",
  "Sign out": "/login.html",
  Profile: "/account.html#profile",
  Billing: "/billing.html",
  Security: "/account.html#security",
  "Payment methods": "/billing.html#payment",
  Invoices: "/invoices.html",
  Next: "/products.html?page=2",
};

export interface FakeBrowser {
  run(e: Emit): Outcome;
  /** Runs a call in the tab `path` is set to (run picks it). */
  inTab(e: Emit): Outcome;
  /** The path each open tab shows. */
  tabs(): Map<number, string>;
  path(): string;
  calls: Emit[];
}

/** A browser on the fake site: clicks by ref or role selector, open, fill, query, snapshot with pcd. */
export function fakeBrowser(startPath: string, months: { label: string; iso: string }[], opts: { signedIn?: boolean } = {}): FakeBrowser {
  const pages = fakeSitePages(months);
  // Tabs as the extension keeps them for a session: actions without tab_id go to the session's
  // current tab, the last one it opened or switched to.
  const tabs = new Map<number, string>([[1, startPath]]);
  let current = 1;
  let shown = 1;
  let nextTab = 2;
  let path = startPath;
  let signedIn = opts.signedIn ?? startPath !== "/login.html";
  let typed = "";
  const calls: Emit[] = [];
  const pcdNow = (): Pcd => {
    const [base, query] = path.split("?");
    const known = pages[base!.split("#")[0]!];
    if (base === "/search.html" && query) {
      const q = new URLSearchParams(query).get("q") ?? "";
      return { ...pages["/search.html"]!, url: `${ORIGIN}${path}`, collections: [{ id: "c1", label: "Results", itemRole: "listitem", count: 1, template: [{ role: "link", ref: "e8" }], samples: [q] }] };
    }
    if (base === "/invoice.html") {
      const iso = new URLSearchParams(query).get("month") ?? "";
      const m = months.find((x) => x.iso === iso);
      return page(path, `Invoice ${m?.label ?? iso}`);
    }
    return { ...(known ?? page(path, "Not found")), url: `${ORIGIN}${path}` };
  };
  const go = (to: string) => {
    if (!signedIn && to !== "/login.html") to = "/login.html";
    const changed = to !== path;
    path = to;
    return changed;
  };
  const ok = (changed = false, data?: unknown): Outcome => ({
    ok: true,
    started_at: new Date(Date.UTC(2026, 10, 28, 12, 0, calls.length)).toISOString(),
    duration_ms: 40,
    ...(data === undefined ? {} : { data }),
    observation: { url: `${ORIGIN}${path}`, title: pcdNow().title, url_changed: changed },
  });
  const fail = (code: string, message: string): Outcome => ({ ...ok(), ok: false, code, message });
  return {
    calls,
    path: () => tabs.get(current) ?? "",
    tabs: () => new Map(tabs),
    run(e) {
      calls.push(e);
      const tab = e.tab_id ?? current;
      if (!tabs.has(tab)) return fail("not_found", `no tab with id ${tab}`);
      path = tabs.get(tab)!;
      const out = this.inTab(e);
      if (tabs.has(tab)) tabs.set(tab, path);
      return out;
    },
    inTab(e: Emit): Outcome {
      const p = e.call.params;
      const cur = pcdNow();
      switch (e.call.action) {
        case "snapshot":
          return ok(false, { text: "(snapshot)", refs: 0, pcd: cur });
        case "open":
          return ok(go(new URL(String(p.url)).pathname + new URL(String(p.url)).search));
        case "fill":
          typed = String(p.value ?? "");
          return ok();
        case "press":
          // Enter in the search field sends the search form.
          if (path.startsWith("/search.html") && p.key === "Enter") return ok(go(`/search.html?q=${encodeURIComponent(typed)}`));
          return ok();
        case "query": {
          if (!path.startsWith("/invoices.html")) return ok(false, { results: [] });
          return ok(false, { results: months.slice(0, 3).map((m, i) => ({ ref: `e${20 + i}`, role: "link", name: `Download invoice ${m.label}` })) });
        }
        case "click": {
          const ref = p.ref as string | undefined;
          const name = (p.selector as { name?: string } | undefined)?.name;
          if (ref && path === "/login.html" && ref === "e3") {
            signedIn = true;
            return ok(go("/home.html"));
          }
          if (ref && path.startsWith("/invoices.html") && /^e2\d$/.test(ref)) {
            const m = months[Number(ref.slice(2))];
            return m ? ok(go(`/invoice.html?month=${m.iso}`)) : fail("not_found", "no such ref");
          }
          const action = cur.actions.find((a) => (ref ? a.ref === ref : a.label === name));
          if (!action) return fail("not_found", `no element ${ref ?? name}`);
          const to = LINKS[action.label];
          return to ? ok(go(to)) : ok();
        }
        case "get": {
          const name = (p.selector as { name?: string } | undefined)?.name;
          const action = cur.actions.find((a) => a.label === name);
          if (!action) return fail("not_found", `no element ${name}`);
          return ok(false, { name: "href", value: LINKS[action.label]?.slice(1) ?? null });
        }
        case "tab_list":
          return ok(false, { tabs: [...tabs].map(([id, at]) => ({ tab_id: id, url: `${ORIGIN}${at}`, active: id === shown })) });
        case "tab_new": {
          const id = nextTab++;
          const to = new URL(String(p.url));
          tabs.set(id, signedIn ? to.pathname + to.search : "/login.html");
          current = id;
          if (p.active !== false) shown = id;
          return ok(false, { tab_id: id, url: `${ORIGIN}${tabs.get(id)}`, active: p.active !== false });
        }
        case "tab_switch":
          current = shown = Number(p.tab_id);
          return ok(false, { tab_id: current });
        case "tab_close": {
          tabs.delete(Number(p.tab_id));
          if (!tabs.has(current)) current = shown = 1;
          return ok(false, { closed: Number(p.tab_id) });
        }
        default:
          return ok();
      }
    },
  };
}
