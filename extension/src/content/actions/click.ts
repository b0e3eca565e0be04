import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { summarize } from "../dom/role-utils.ts";
import { targetParams } from "./params.ts";
import { pointerClick } from "../dom/pointer.ts";
import { resolveTarget } from "../dom/resolve-target.ts";
import { userTarget } from "../dom/label-proxy.ts";
import { revealByHover } from "../dom/real-pointer.ts";
import { trustedClick, watchEffects, type InputReport } from "../dom/trusted-input.ts";

registerAction("click", targetParams, async (params, ctx) => {
  const el = resolveTarget(params);
  await revealByHover(el, params.timeout_ms);
  // A custom switch's hidden input is clicked where the user would: its label, with the slider.
  const point = await waitForActionable(userTarget(el), { hitTest: true, timeoutMs: params.timeout_ms, control: el });
  const report: InputReport = {};
  if (ctx.input === "trusted" && (await trustedClick(point, 1, report))) return { clicked: summarize(el), ...report };
  const effects = watchEffects(el);
  pointerClick(point);
  return { clicked: summarize(el), ...report, ...(await effects()) };
});
