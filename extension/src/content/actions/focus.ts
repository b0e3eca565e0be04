import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { deepActiveElement } from "../dom/deep-dom.ts";
import { describeElement } from "../dom/element-state.ts";
import { summarize } from "../dom/role-utils.ts";
import { focusElement } from "../dom/input-events.ts";
import { targetParams } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

registerAction("focus", targetParams, async (params) => {
  const el = resolveTarget(params);
  focusElement(el);
  if (deepActiveElement(el.ownerDocument) !== el) {
    throw new ActionError("not_actionable", `${describeElement(el)} cannot take focus (not focusable, disabled or hidden)`);
  }
  return { focused: summarize(el) };
});
