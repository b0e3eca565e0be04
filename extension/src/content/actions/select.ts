import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { describeElement } from "../dom/element-state.ts";
import { summarize } from "../dom/role-utils.ts";
import { dispatchChange, dispatchInput, focusElement } from "../dom/input-events.ts";
import { needsTarget, targetMessage, targetShape, timeout } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

const selectParams = z
  .object({
    ...targetShape,
    value: z.optional(z.union([z.string(), z.array(z.string()).check(z.minLength(1))])),
    label: z.optional(z.union([z.string(), z.array(z.string()).check(z.minLength(1))])),
    timeout_ms: timeout,
  })
  .check(
    z.refine(needsTarget, targetMessage),
    z.refine((v) => v.value !== undefined || v.label !== undefined, { message: "give `value` (option value or label)" }),
  );

const label = (o: HTMLOptionElement) => o.label.replace(/\s+/g, " ").trim();

registerAction("select", selectParams, async (params) => {
  const el = resolveTarget(params);
  if (el.localName !== "select") {
    throw new ActionError(
      "not_actionable",
      `${describeElement(el)} is not a <select>; for a custom dropdown, click it and then click the option`,
    );
  }
  const select = el as HTMLSelectElement;
  await waitForActionable(select, { hitTest: false, timeoutMs: params.timeout_ms });
  const wanted = [params.value ?? [], params.label ?? []].flat();
  if (wanted.length > 1 && !select.multiple) throw new ActionError("invalid_params", "this dropdown takes one option; give one value");
  const options = Array.from(select.options);
  const chosen = wanted.map((w) => {
    const found =
      options.find((o) => o.value === w) ??
      options.find((o) => label(o) === w.trim()) ??
      options.find((o) => label(o).toLowerCase() === w.trim().toLowerCase());
    if (!found) {
      const available = options.slice(0, 20).map((o) => `"${label(o)}"${o.value !== label(o) ? ` (value "${o.value}")` : ""}`);
      throw new ActionError("not_found", `no option "${w}" in ${describeElement(select)}; options: ${available.join(", ")}${options.length > 20 ? ", …" : ""}`);
    }
    if (found.disabled) throw new ActionError("not_actionable", `option "${label(found)}" is disabled`);
    return found;
  });
  focusElement(select);
  for (const o of options) o.selected = chosen.includes(o);
  dispatchInput(select, null, "insertReplacementText");
  dispatchChange(select);
  return {
    selected_in: summarize(select),
    selected: Array.from(select.selectedOptions).map((o) => ({ value: o.value, label: label(o) })),
  };
});
