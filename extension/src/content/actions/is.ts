import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { checkedState, isEditable, isEnabled, isVisible } from "../dom/element-state.ts";
import { needsTarget, targetMessage, targetShape } from "./params.ts";
import { matchSelector, resolveTarget } from "../dom/resolve-target.ts";

const isParams = z
  .object({ ...targetShape, state: z.enum(["visible", "enabled", "checked", "editable"]) })
  .check(z.refine(needsTarget, targetMessage));

registerAction("is", isParams, async (params) => {
  // "Is X visible?" about a selector that matches nothing has a plain answer: no.
  if (params.state === "visible" && params.ref === undefined && params.selector && matchSelector(params.selector).length === 0) {
    return { state: "visible", value: false };
  }
  const el = resolveTarget(params);
  switch (params.state) {
    case "visible":
      return { state: "visible", value: isVisible(el) };
    case "enabled":
      return { state: "enabled", value: isEnabled(el) };
    case "editable":
      return { state: "editable", value: isEditable(el) };
    case "checked": {
      const checked = checkedState(el);
      if (checked === undefined) throw new ActionError("not_actionable", "this element has no checked state (not a checkbox, radio, switch or toggle)");
      return { state: "checked", value: checked === true, ...(checked === "mixed" ? { mixed: true } : {}) };
    }
  }
});
