import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { summarize } from "../dom/role-utils.ts";
import { targetParams } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";
import { userTarget } from "../dom/label-proxy.ts";
import { hoverAt } from "../dom/real-pointer.ts";

// The real pointer when the worker can move it (CSS :hover, a row's hover-only buttons appear), else
// synthetic pointer events, which reach JS hover handlers (mouseenter/mouseover menus) only.
registerAction("hover", targetParams, async (params) => {
  const el = resolveTarget(params);
  const point = await waitForActionable(userTarget(el), { hitTest: true, enabled: false, timeoutMs: params.timeout_ms });
  const pointer = await hoverAt(point);
  return { hovered: summarize(el), pointer };
});
