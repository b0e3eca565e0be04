import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { waitForActionable } from "../dom/actionability.ts";
import { deepActiveElement } from "../dom/deep-dom.ts";
import { summarize } from "../dom/role-utils.ts";
import { focusElement } from "../dom/input-events.ts";
import { pressChord } from "../dom/key-events.ts";
import { KeyParseError, parseChord, type Chord } from "../dom/keyboard.ts";
import { targetShape, timeout } from "./params.ts";
import { trustedChord, type InputReport } from "../dom/trusted-input.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

const pressParams = z.object({ ...targetShape, key: z.string().check(z.minLength(1)), timeout_ms: timeout });

registerAction("press", pressParams, async (params, ctx) => {
  let chord: Chord;
  try {
    chord = parseChord(params.key);
  } catch (err) {
    if (err instanceof KeyParseError) throw new ActionError("invalid_params", `${err.message}; keys look like Enter, Tab, a, Control+A, Shift+Tab`);
    throw err;
  }
  let start: Element = deepActiveElement() ?? document.body;
  if (params.ref !== undefined || params.selector !== undefined) {
    const el = resolveTarget(params);
    await waitForActionable(el, { hitTest: false, enabled: false, timeoutMs: params.timeout_ms });
    focusElement(el);
    start = el;
  }
  const report: InputReport = {};
  // Trusted: the browser runs the key's default action itself, and whether the page cancelled it is not reported back.
  if (ctx.input === "trusted" && (await trustedChord(chord, report))) {
    const focused = deepActiveElement(start.ownerDocument);
    return { pressed: params.key, focused: focused ? summarize(focused) : null, ...report };
  }
  const { prevented } = pressChord(start, chord);
  const focused = deepActiveElement(start.ownerDocument);
  return { pressed: params.key, prevented_by_page: prevented, focused: focused ? summarize(focused) : null, ...report };
});
