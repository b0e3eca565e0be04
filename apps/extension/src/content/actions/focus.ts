import { ActionError } from "../action-error.ts";
import { registerAction } from "../action-registry.ts";
import { deepActiveElement } from "./deep-dom.ts";
import { describeElement } from "./element-state.ts";
import { summarize } from "./element-role.ts";
import { focusElement } from "./input-events.ts";
import { parseParams, targetParams } from "./params.ts";
import { resolveTarget } from "./resolve-target.ts";

registerAction("focus", async (raw) => {
  const params = parseParams(targetParams, raw);
  const el = resolveTarget(params);
  focusElement(el);
  if (deepActiveElement(el.ownerDocument) !== el) {
    throw new ActionError("not_actionable", `${describeElement(el)} cannot take focus (not focusable, disabled or hidden)`);
  }
  return { focused: summarize(el) };
});
