import { actionParamsSchemas } from "@crumbs/schemas";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  extractParams,
  fillParams,
  getParams,
  isParams,
  pressParams,
  scrollParams,
  selectParams,
  targetParams,
  typeParams,
  waitForParams,
} from "./params.ts";

// Whatever the bus accepts (actionParamsSchemas in @crumbs/schemas) the content script must accept too, with
// the same meaning: these samples are valid there and must parse here.
const samples: Record<string, [z.ZodType, Record<string, unknown>[]]> = {
  click: [targetParams, [{ ref: "e3" }, { selector: { role: "button", name: "Save", exact: true, nth: 1 } }, { selector: { text: "Save" } }]],
  fill: [fillParams, [{ ref: "e3", value: "Ada" }, { selector: { css: "#name" }, value: "" }]],
  type: [typeParams, [{ ref: "e3", value: "abc", delay: 20 }]],
  press: [pressParams, [{ key: "Enter" }, { ref: "e1", key: "Control+a" }]],
  select: [selectParams, [{ ref: "e4", value: "France" }]],
  scroll: [scrollParams, [{}, { direction: "down", amount: 300 }, { ref: "e9" }, { selector: { role: "list" }, direction: "up" }]],
  wait_for: [waitForParams, [{ until: { url: "/done" } }, { until: { selector: { css: "#x" } }, timeout_ms: 500 }, { until: { text: "ok", network_idle: true } }]],
  extract: [extractParams, [{ ref: "e2" }, { selector: { css: "ul" }, fields: ["title", "url"], limit: 10 }]],
  get: [getParams, [{ what: "title" }, { ref: "e1", what: "attribute", name: "href" }, { ref: "e1", what: "html" }]],
  is: [isParams, [{ ref: "e1", state: "checked" }]],
};

describe("content params follow @crumbs/schemas", () => {
  for (const [action, [local, cases]] of Object.entries(samples)) {
    it(action, () => {
      const shared = actionParamsSchemas[action as keyof typeof actionParamsSchemas];
      for (const params of cases) {
        expect(shared.safeParse(params).success, `${action} ${JSON.stringify(params)} in @crumbs/schemas`).toBe(true);
        const parsed = local.safeParse(params);
        expect(parsed.success, `${action} ${JSON.stringify(params)} here`).toBe(true);
      }
    });
  }
});
