import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { deepActiveElement } from "../dom/deep-dom.ts";
import { describeElement } from "../dom/element-state.ts";
import { nameOf, summarize } from "../dom/role-utils.ts";
import { targetShape, timeout } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

const submitParams = z.object({ ...targetShape, timeout_ms: timeout });

// submit: the form of the target (a form, a field or a button in it), or of the focused field. requestSubmit runs
// validation and the page's submit handlers like the user pressing the submit button.
registerAction("submit", submitParams, async (params) => {
  const hasTarget = params.ref !== undefined || params.selector !== undefined;
  const el = hasTarget ? resolveTarget(params) : deepActiveElement();
  const form = el ? formOf(el) : null;
  if (!form) {
    throw new ActionError("not_found", hasTarget ? `${describeElement(el!)} is not in a form` : "no form: give `ref` of the form or of a field in it");
  }
  if (!form.checkValidity()) {
    const invalid = Array.from(form.elements)
      .filter((c) => !(c as HTMLInputElement).validity?.valid)
      .slice(0, 10)
      .map((c) => `${nameOf(c) || describeElement(c)}: ${(c as HTMLInputElement).validationMessage}`);
    throw new ActionError("not_actionable", `the form did not submit: ${invalid.join("; ")}`);
  }
  const submitter = el && isSubmitter(el) && (el as HTMLButtonElement).form === form ? (el as HTMLButtonElement) : undefined;
  form.requestSubmit(submitter);
  return { submitted: summarize(form), method: form.method, action: form.action };
});

function formOf(el: Element): HTMLFormElement | null {
  if (el.localName === "form") return el as HTMLFormElement;
  const owner = (el as HTMLInputElement).form;
  return owner ?? el.closest("form");
}

function isSubmitter(el: Element): boolean {
  if (el.localName === "button") return ((el as HTMLButtonElement).type || "submit") === "submit";
  return el.localName === "input" && ["submit", "image"].includes((el as HTMLInputElement).type);
}
