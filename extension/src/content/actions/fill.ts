import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { describeElement, isEnabled, isTextEntry } from "../dom/element-state.ts";
import { summarize } from "../dom/role-utils.ts";
import { isSecretField, reportedValue } from "../dom/redaction.ts";
import { focusElement, readValue, replaceValue, selectAllContents } from "../dom/input-events.ts";
import { keyDef } from "../dom/keyboard.ts";
import { trusted, type InputReport } from "../dom/trusted-input.ts";
import { trustedInputHint } from "../../shared/trusted-input.ts";
import { needsTarget, targetMessage, targetShape, timeout } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

const fillParams = z
  .object({ ...targetShape, value: z.string(), timeout_ms: timeout })
  .check(z.refine(needsTarget, targetMessage));

// Inputs whose value is set as a whole string in a fixed format rather than typed.
const FORMATTED_TYPES = new Set(["color", "range", "date", "datetime-local", "month", "time", "week", "number"]);

registerAction("fill", fillParams, async (params, ctx) => {
  const el = resolveTarget(params);
  refuseNonText(el);
  await waitForActionable(el, { editable: true, hitTest: false, timeoutMs: params.timeout_ms });
  const report: InputReport = {};
  const formattedType = el.localName === "input" && FORMATTED_TYPES.has((el as HTMLInputElement).type);
  // Trusted: select what is there and replace it as typed text (Backspace for an empty value). A formatted
  // field (date, color) takes its value as a whole string only, so it stays synthetic.
  if (!(ctx.input === "trusted" && !formattedType && (await fillTrusted(el, params.value, report)))) replaceValue(el, params.value);
  const back = readValue(el);
  const formatted = formattedType;
  const matches = formatted || el.localName !== "input" && el.localName !== "textarea"
    ? normalize(back) === normalize(params.value)
    : back === params.value;
  if (!matches) {
    const shown = isSecretField(el) ? "the value" : `"${params.value.slice(0, 100)}"`;
    throw new ActionError(
      formatted ? "invalid_params" : "not_actionable",
      formatted
        ? `${describeElement(el)} rejected ${shown}: a ${(el as HTMLInputElement).type} field needs its own format (for example 2024-05-31 for a date)`
        : `${describeElement(el)} did not keep ${shown} (the page changed it back or limits its length)` +
          (report.input === "trusted" ? "" : `; ${trustedInputHint(location.hostname)}`),
    );
  }
  return { filled: summarize(el), ...reportedValue(el), ...report };
});

async function fillTrusted(el: Element, value: string, report: InputReport): Promise<boolean> {
  focusElement(el);
  selectAllContents(el);
  if (value === "") return readValue(el) === "" || trusted({ type: "key", key: keyDef("Backspace"), modifiers: [] }, report);
  return trusted({ type: "text", text: value }, report);
}

function refuseNonText(el: Element): void {
  if (el.localName === "select") throw new ActionError("invalid_params", "this is a dropdown: use `select` with a value or label");
  if (el.localName === "input") {
    const type = (el as HTMLInputElement).type;
    if (type === "checkbox" || type === "radio") throw new ActionError("invalid_params", `this is a ${type}: use \`check\` or \`uncheck\``);
    if (type === "file") throw new ActionError("not_actionable", "file inputs cannot be filled from the page");
    if (FORMATTED_TYPES.has(type)) {
      if (!isEnabled(el)) throw new ActionError("not_actionable", `${describeElement(el)} is disabled`);
      return;
    }
  }
  if (!isTextEntry(el)) {
    throw new ActionError("not_actionable", `${describeElement(el)} is not a text field (input, textarea or contenteditable)`);
  }
}

function normalize(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
