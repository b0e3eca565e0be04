import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { checkedState, describeElement } from "../dom/element-state.ts";
import { summarize } from "../dom/role-utils.ts";
import { targetParams } from "./params.ts";
import { pointerClick } from "../dom/pointer.ts";
import { resolveTarget } from "../dom/resolve-target.ts";
import { userTarget } from "../dom/label-proxy.ts";
import { trustedClick, type InputReport } from "../dom/trusted-input.ts";
import { trustedInputHint } from "../../shared/trusted-input.ts";

// check/uncheck click like a user (so React's onClick/onChange and Vue's v-model run) and then verify the state.
for (const [name, want] of [["check", true], ["uncheck", false]] as const) {
  registerAction(name, targetParams, async (params, ctx) => {
    const el = resolveTarget(params);
    const before = checkedState(el);
    if (before === undefined) {
      throw new ActionError("not_actionable", `${describeElement(el)} is not a checkbox, radio or switch`);
    }
    const isRadio = el.localName === "input" && (el as HTMLInputElement).type === "radio" || el.getAttribute("role") === "radio";
    if (!want && isRadio) {
      throw new ActionError("invalid_params", "a radio button cannot be unchecked: check another option of the group");
    }
    if (before === want) return { [name === "check" ? "checked" : "unchecked"]: summarize(el), changed: false };
    // Custom checkboxes often hide the real input and show a styled label: click what the user would click.
    const point = await waitForActionable(userTarget(el), { hitTest: true, timeoutMs: params.timeout_ms, control: el });
    const report: InputReport = {};
    if (!(ctx.input === "trusted" && (await trustedClick(point, 1, report)))) pointerClick(point);
    const after = checkedState(el);
    if (after !== want) {
      const hint = report.input === "trusted" ? "" : `; ${trustedInputHint(location.hostname)}`;
      throw new ActionError("not_actionable", `clicking ${describeElement(el)} did not ${name} it (the page kept it ${after ? "checked" : "unchecked"})${hint}`);
    }
    return { [name === "check" ? "checked" : "unchecked"]: summarize(el), changed: true, ...report };
  });
}
