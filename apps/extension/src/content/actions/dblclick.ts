import { registerAction } from "../action-registry.ts";
import { waitForActionable } from "./actionability.ts";
import { summarize } from "./element-role.ts";
import { parseParams, targetParams } from "./params.ts";
import { pointerDblclick } from "./pointer.ts";
import { resolveTarget } from "./resolve-target.ts";

registerAction("dblclick", async (raw) => {
  const params = parseParams(targetParams, raw);
  const el = resolveTarget(params);
  const point = await waitForActionable(el, { hitTest: true, timeoutMs: params.timeout_ms });
  pointerDblclick(point);
  return { dblclicked: summarize(el) };
});
