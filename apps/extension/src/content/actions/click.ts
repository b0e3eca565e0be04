import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { summarize } from "../dom/role-utils.ts";
import { parseParams, targetParams } from "./params.ts";
import { pointerClick } from "../dom/pointer.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

registerAction("click", async (raw) => {
  const params = parseParams(targetParams, raw);
  const el = resolveTarget(params);
  const point = await waitForActionable(el, { hitTest: true, timeoutMs: params.timeout_ms });
  pointerClick(point);
  return { clicked: summarize(el) };
});
