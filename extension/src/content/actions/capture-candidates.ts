import * as z from "@crumbs/schemas/zod-mini";
import { MAX_CANDIDATE_REFS } from "@crumbs/schemas/browser-action";
import { isActionError } from "../../shared/action-error.ts";
import type { CandidateRects } from "../../shared/capture-candidates.ts";
import { registerAction } from "./registry.ts";
import { candidateOf, resolveRef } from "../dom/refs.ts";
import { deepElements } from "../dom/deep-dom.ts";
import { isVisible } from "../dom/element-state.ts";
import { isSecretField } from "../dom/redaction.ts";

// The page's half of `capture_candidates`: where each ref is in the viewport, and whether a secret field is on
// screen. The worker takes the screenshot and draws the boxes (background/commands/capture-candidates.ts), so
// nothing is drawn into the page. The worker asks every frame for `secret_on_screen` (an empty `refs`): a
// password field in any frame means no screenshot.

const params = z.object({
  // The worker also sends an empty list, to ask a frame only about secrets.
  refs: z.array(z.string().check(z.minLength(1))).check(z.maxLength(MAX_CANDIDATE_REFS)),
  crops: z.optional(z.number()),
});

function onScreen(r: DOMRect): boolean {
  return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
}

/** A password, one-time-code or payment field (the same rule as redaction) that is rendered inside the viewport. */
function secretOnScreen(): boolean {
  for (const el of deepElements(document, { frames: false })) {
    if ((el.localName === "input" || el.localName === "textarea") && isSecretField(el) && isVisible(el) && onScreen(el.getBoundingClientRect())) return true;
  }
  return false;
}

registerAction("capture_candidates", params, async (p): Promise<CandidateRects> => {
  const out: CandidateRects = { viewport: { width: innerWidth, height: innerHeight }, boxes: [], off_screen: [], skipped: [], secret_on_screen: secretOnScreen() };
  for (const ref of p.refs) {
    let el: Element;
    try {
      el = resolveRef(ref);
    } catch (e) {
      out.skipped.push({ ref, reason: isActionError(e) && e.code === "stale_ref" ? "not on the page any more" : "not a ref of this page" });
      continue;
    }
    const r = el.getBoundingClientRect();
    if (!isVisible(el) || !onScreen(r)) {
      out.off_screen.push(ref);
      continue;
    }
    // The part inside the viewport: that is what the screenshot shows.
    const x = Math.max(0, r.left);
    const y = Math.max(0, r.top);
    const c = candidateOf(el);
    out.boxes.push({ ref, role: c.role, name: c.name, x, y, width: Math.min(innerWidth, r.right) - x, height: Math.min(innerHeight, r.bottom) - y });
  }
  return out;
});
