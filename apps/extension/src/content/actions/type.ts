import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { sleep, waitForActionable } from "../dom/actionability.ts";
import { deepActiveElement } from "../dom/deep-dom.ts";
import { describeElement } from "../dom/element-state.ts";
import { summarize } from "../dom/role-utils.ts";
import { reportedValue } from "./field-value.ts";
import { caretToEnd, focusElement } from "../dom/input-events.ts";
import { typeChar } from "../dom/key-events.ts";
import { parseParams, typeParams } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

// `type` appends keystroke by keystroke (the action contract); `fill` replaces the whole value.
registerAction("type", async (raw) => {
  const params = parseParams(typeParams, raw);
  const text = params.value ?? params.text ?? "";
  const hasTarget = params.ref !== undefined || params.selector !== undefined;
  const el = hasTarget ? resolveTarget(params) : deepActiveElement();
  if (!el || el === document.body) {
    throw new ActionError("invalid_params", "nothing has focus: give `ref` or `selector` of the field to type into");
  }
  await waitForActionable(el, { editable: true, hitTest: false, timeoutMs: params.timeout_ms });
  if (deepActiveElement(el.ownerDocument) !== el) {
    focusElement(el);
    caretToEnd(el);
  }
  if (deepActiveElement(el.ownerDocument) !== el) throw new ActionError("not_actionable", `${describeElement(el)} cannot take focus`);
  for (const ch of text) {
    typeChar(el, ch);
    if (params.delay) await sleep(params.delay);
  }
  return { typed: summarize(el), chars: [...text].length, ...reportedValue(el) };
});
