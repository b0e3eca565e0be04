import { actionParamsSchemas, BROWSER_ACTIONS } from "@crumbs/schemas";
import { describe, expect, it } from "vitest";
import "./index.ts";
import { actionParams, registeredActions } from "./registry.ts";

// Whatever the bus accepts (actionParamsSchemas in @crumbs/schemas) the content script must accept too, with
// the same meaning: these samples are valid there and must parse here.
const target = [
  { ref: "e3" },
  { selector: { role: "button", name: "Save", exact: true, nth: 1 } },
  { selector: { text: "Save" } },
  { selector: { role: "link", name: "^Product \\d+$", nameMode: "regex", within: { landmark: "main" } } },
  { selector: { role: "checkbox", name: "agree", nameMode: "includes", states: { checked: false, disabled: false } } },
  { selector: { role: "button", name: "Pay", nameMode: "exact", frame: ["Payment"] } },
  { selector: { xpath: "/html/body/form/button[1]" } },
];
const samples: Record<string, Record<string, unknown>[]> = {
  click: target,
  dblclick: target,
  hover: target,
  focus: target,
  check: target,
  uncheck: target,
  submit: [{ ref: "e3" }, { selector: { css: "form" } }],
  fill: [{ ref: "e3", value: "Ada" }, { selector: { css: "#name" }, value: "" }],
  type: [{ ref: "e3", value: "abc", delay: 20 }],
  press: [{ key: "Enter" }, { ref: "e1", key: "Control+a" }],
  select: [{ ref: "e4", value: "France" }],
  scroll: [{}, { direction: "down", amount: 300 }, { ref: "e9" }, { selector: { role: "list" }, direction: "up" }],
  wait_for: [{ until: { url: "/done" } }, { until: { selector: { css: "#x" } }, timeout_ms: 500 }, { until: { selector: { xpath: "//p[@id='done']" } } }, { until: { text: "ok", network_idle: true } }],
  extract: [{ ref: "e2" }, { selector: { css: "ul" }, fields: ["title", "url"], limit: 10 }],
  get: [{ what: "title" }, { ref: "e1", what: "attribute", name: "href" }, { ref: "e1", what: "html" }],
  is: [{ ref: "e1", state: "checked" }],
  query: [{ query: "the checkout button" }, { query: "email field", limit: 10 }],
  details: target,
  capture_candidates: [{ refs: ["e1", "e7"] }, { refs: ["e3"], crops: 0 }],
};

describe("content params follow @crumbs/schemas", () => {
  it("every verb the content script registers is an action of the contract, and has samples here", () => {
    for (const verb of registeredActions()) {
      expect(BROWSER_ACTIONS as readonly string[]).toContain(verb);
      expect(samples[verb], verb).toBeDefined();
    }
  });

  for (const [action, cases] of Object.entries(samples)) {
    it(action, () => {
      const local = actionParams(action)!;
      expect(local, `${action} is registered`).toBeDefined();
      const shared = actionParamsSchemas[action as keyof typeof actionParamsSchemas];
      for (const params of cases) {
        expect(shared.safeParse(params).success, `${action} ${JSON.stringify(params)} in @crumbs/schemas`).toBe(true);
        const parsed = local.safeParse(params);
        expect(parsed.success, `${action} ${JSON.stringify(params)} here`).toBe(true);
      }
    });
  }
});
