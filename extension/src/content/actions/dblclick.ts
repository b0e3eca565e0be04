import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { summarize } from "../dom/role-utils.ts";
import { targetParams } from "./params.ts";
import { pointerDblclick } from "../dom/pointer.ts";
import { resolveTarget } from "../dom/resolve-target.ts";
import { userTarget } from "../dom/label-proxy.ts";
import { trustedClick, watchEffects, type InputReport } from "../dom/trusted-input.ts";

registerAction("dblclick", targetParams, async (params, ctx) => {
  const el = resolveTarget(params);
  const point = await waitForActionable(userTarget(el), { hitTest: true, timeoutMs: params.timeout_ms, control: el });
  const report: InputReport = {};
  if (ctx.input === "trusted" && (await trustedClick(point, 2, report))) return { dblclicked: summarize(el), ...report };
  const effects = watchEffects(el);
  pointerDblclick(point);
  return { dblclicked: summarize(el), ...report, ...(await effects()) };
});
