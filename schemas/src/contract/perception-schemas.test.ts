import { z } from "zod";
import { describe, expect, it } from "vitest";
import { MAX_REF_CANDIDATES } from "./action-result-schema.ts";
import { actionParamsSchemas } from "./browser-action-schema.ts";
import { SchemaValidationError } from "./errors.ts";
import { REFERENCE_PAGE_CONTEXT } from "./fixtures/page-context-example.ts";
import { validateContext } from "./known-schemas.ts";
import { PCD_LIMITS, pcdSchema } from "./pcd-schema.ts";
import { MAX_REGEX_LENGTH } from "./regex-limits.ts";

// The contract of perception (docs/agents.md, "Perception"): role selectors, query and details, a
// result that says it rebound, and the page capability descriptor in the page context.

const action = (a: string, params: unknown) =>
  validateContext("browser.action.v1", { action: a, params, target_extension: "ext1", request_id: "r1" });
const obs = { url: "https://x.test", title: "X", url_changed: false };
const result = (extra: Record<string, unknown>) =>
  validateContext("browser.action.result.v1", { request_id: "r", action_id: "a", observation: obs, ...extra });

describe("role selectors", () => {
  it("take a name exact, as a substring or as a regex, states, a landmark, a frame path and nth", () => {
    const selectors = [
      { role: "button", name: "Save", nameMode: "exact" },
      { role: "button", name: "save", nameMode: "includes" },
      { role: "link", name: "^Product \\d+$", nameMode: "regex" },
      { role: "checkbox", states: { checked: false, disabled: false } },
      { role: "button", states: { expanded: true, pressed: false, selected: false } },
      { role: "textbox", name: "Email", within: { landmark: "form", name: "Newsletter" } },
      { role: "link", within: { landmark: "nav" } },
      { role: "button", name: "Pay", frame: ["Payment", "Card"] },
      { role: "button", name: "Add to cart", nth: 3 },
      { role: "button", name: "Save", exact: true },
    ];
    for (const selector of selectors) expect(() => action("click", { selector }), JSON.stringify(selector)).not.toThrow();
  });

  it.each([
    [{ role: "button", nameMode: "regex" }, "nameMode needs name"],
    [{ role: "button", name: "x".repeat(MAX_REGEX_LENGTH + 1), nameMode: "regex" }, `<=${MAX_REGEX_LENGTH} characters`],
    // A selector that fits none of the three forms is refused at `selector` (a union: no single field to blame).
    [{ role: "button", name: "x", nameMode: "fuzzy" }, "selector"],
    [{ role: "button", states: { hidden: true } }, "selector"],
    [{ role: "button", within: { landmark: "sidebar" } }, "selector"],
    [{ role: "button", frame: [] }, "frame"],
    [{ role: "button", frame: ["a", "b", "c", "d", "e"] }, "selector"],
    [{ role: "button", name: "x", exact: true, nameMode: "regex" }, "contradicts"],
  ])("refuses %j", (selector, why) => {
    expect(() => action("click", { selector })).toThrow(SchemaValidationError);
    expect(() => action("click", { selector })).toThrow(why);
  });
});

describe("query and details", () => {
  it("query takes words and a bounded limit; details a target", () => {
    expect(() => action("query", { query: "the checkout button" })).not.toThrow();
    expect(() => action("query", { query: "email field", limit: 20 })).not.toThrow();
    expect(() => action("query", { query: "" })).toThrow(SchemaValidationError);
    expect(() => action("query", { query: "x".repeat(201) })).toThrow(SchemaValidationError);
    expect(() => action("query", { query: "x", limit: 21 })).toThrow(SchemaValidationError);
    expect(() => action("details", { ref: "e12" })).not.toThrow();
    expect(() => action("details", { selector: { role: "textbox", name: "Email" } })).not.toThrow();
    expect(() => action("details", {})).toThrow("ref");
  });

  it("become tools the model can read: descriptions say they only read", () => {
    for (const a of ["query", "details"] as const) {
      const js = z.toJSONSchema(actionParamsSchemas[a]) as { description: string };
      expect(js.description).toMatch(/Read-only/);
    }
  });
});

describe("browser.action.result.v1", () => {
  it("a rebound result names the new ref", () => {
    expect(() => result({ status: "ok", rebound: true, ref: "e41" })).not.toThrow();
    expect(() => result({ status: "ok", rebound: true })).toThrow("new ref");
  });

  it("a stale ref may list candidates, at most MAX_REF_CANDIDATES", () => {
    const candidate = { ref: "e7", role: "button", name: "Save" };
    expect(() => result({ status: "error", code: "stale_ref", candidates: [candidate, { ...candidate, ref: "f1e2", secret: true }] })).not.toThrow();
    const many = Array.from({ length: MAX_REF_CANDIDATES + 1 }, (_, i) => ({ ...candidate, ref: `e${i}` }));
    expect(() => result({ status: "error", code: "stale_ref", candidates: many })).toThrow(SchemaValidationError);
  });
});

describe("context.pcd", () => {
  const pcd = {
    url: "https://shop.test/",
    origin: "https://shop.test",
    title: "Shop",
    loginState: "out",
    landmarks: [{ role: "main" }, { role: "navigation", label: "Primary" }],
    actions: [{ ref: "e3", label: "Checkout", role: "button", kind: "submit", landmark: "main", aboveFold: true, count: 2 }],
    forms: [{ id: "f1", purpose: "login", fields: [{ ref: "e5", label: "Password", type: "password", required: true, secret: true }], submit: { ref: "e6", label: "Sign in" } }],
    collections: [{ id: "c1", label: "Products", itemRole: "article", count: 32, template: [{ role: "link", ref: "e9" }, { role: "button", label: "Add to cart", ref: "e10" }], samples: ["Product 0"] }],
  };

  it("is part of the page context", () => {
    expect(validateContext("browser.page.context.v1", { ...REFERENCE_PAGE_CONTEXT, pcd }).pcd).toEqual(pcd);
  });

  it("is bounded", () => {
    const tooMany = Array.from({ length: PCD_LIMITS.actions + 1 }, (_, i) => ({ ref: `e${i}`, label: "x", role: "button" }));
    expect(pcdSchema.safeParse({ ...pcd, actions: tooMany }).success).toBe(false);
    expect(pcdSchema.safeParse({ ...pcd, loginState: "maybe" }).success).toBe(false);
    expect(() => validateContext("browser.page.context.v1", { ...REFERENCE_PAGE_CONTEXT, pcd: { ...pcd, actions: tooMany } })).toThrow(SchemaValidationError);
  });
});
