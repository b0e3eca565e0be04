import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { summarize } from "../dom/role-utils.ts";
import { targetParams } from "./params.ts";
import { pointerMove } from "../dom/pointer.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

// Synthetic pointer events reach JS hover handlers (mouseenter/mouseover menus); CSS :hover only follows the
// real pointer, which a page script cannot move.
registerAction("hover", targetParams, async (params) => {
  const el = resolveTarget(params);
  const point = await waitForActionable(el, { hitTest: true, enabled: false, timeoutMs: params.timeout_ms });
  pointerMove(point);
  return { hovered: summarize(el) };
});
