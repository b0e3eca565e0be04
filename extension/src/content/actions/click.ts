import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { summarize } from "../dom/role-utils.ts";
import { targetParams } from "./params.ts";
import { pointerClick } from "../dom/pointer.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

registerAction("click", targetParams, async (params) => {
  const el = resolveTarget(params);
  const point = await waitForActionable(el, { hitTest: true, timeoutMs: params.timeout_ms });
  pointerClick(point);
  return { clicked: summarize(el) };
});
