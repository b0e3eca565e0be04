import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { sleep, waitForActionable } from "../dom/actionability.ts";
import { deepActiveElement } from "../dom/deep-dom.ts";
import { describeElement } from "../dom/element-state.ts";
import { summarize } from "../dom/role-utils.ts";
import { reportedValue } from "../dom/redaction.ts";
import { caretToEnd, focusElement } from "../dom/input-events.ts";
import { typeChar } from "../dom/key-events.ts";
import { charDef } from "../dom/keyboard.ts";
import { trusted, type InputReport } from "../dom/trusted-input.ts";
import { targetShape, timeout } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

const typeParams = z
  .object({
    ...targetShape,
    value: z.optional(z.string()),
    // the command form (shared/command.ts) may call it `text`
    text: z.optional(z.string()),
    delay: z.optional(z.number().check(z.int(), z.gte(0), z.lte(1_000))),
    timeout_ms: timeout,
  })
  .check(z.refine((v) => v.value !== undefined || v.text !== undefined, { message: "give `value`: the text to type" }));

// `type` appends keystroke by keystroke (the action contract); `fill` replaces the whole value.
registerAction("type", typeParams, async (params, ctx) => {
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
  const report: InputReport = {};
  let viaWorker = ctx.input === "trusted";
  for (const ch of text) {
    // Trusted: each character as its key (keyDown with its text, keyUp), as a keyboard sends it; a
    // failure part-way types the rest synthetically.
    if (!(viaWorker && (await trusted({ type: "key", key: charDef(ch), modifiers: [] }, report)))) {
      viaWorker = false;
      typeChar(el, ch);
    }
    if (params.delay) await sleep(params.delay);
  }
  return { typed: summarize(el), chars: [...text].length, ...reportedValue(el), ...report };
});
