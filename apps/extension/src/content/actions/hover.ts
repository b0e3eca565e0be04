import { registerAction } from "../action-registry.ts";
import { waitForActionable } from "./actionability.ts";
import { summarize } from "./element-role.ts";
import { parseParams, targetParams } from "./params.ts";
import { pointerMove } from "./pointer.ts";
import { resolveTarget } from "./resolve-target.ts";

// Synthetic pointer events reach JS hover handlers (mouseenter/mouseover menus); CSS :hover only follows the
// real pointer, which a page script cannot move.
registerAction("hover", async (raw) => {
  const params = parseParams(targetParams, raw);
  const el = resolveTarget(params);
  const point = await waitForActionable(el, { hitTest: true, enabled: false, timeoutMs: params.timeout_ms });
  pointerMove(point);
  return { hovered: summarize(el) };
});
