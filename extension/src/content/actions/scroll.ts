import * as z from "@crumbs/schemas/zod-mini";
import { registerAction } from "./registry.ts";
import { nextFrame } from "../dom/actionability.ts";
import { summarize } from "../dom/role-utils.ts";
import { targetShape } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

const scrollParams = z.object({
  ...targetShape,
  direction: z.optional(z.enum(["up", "down", "left", "right", "top", "bottom"])),
  amount: z.optional(z.number().check(z.gte(0), z.lte(1_000_000))),
});

// scroll: with only a target, bring it into view; with a direction, scroll the page (or the target's scrollable
// container) by `amount` pixels, a screenful by default; `top`/`bottom` jump to the ends.
registerAction("scroll", scrollParams, async (params) => {
  const hasTarget = params.ref !== undefined || params.selector !== undefined;
  const el = hasTarget ? resolveTarget(params) : null;
  if (el && !params.direction) {
    el.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    await nextFrame(el);
    return { scrolled_to: summarize(el), ...pagePosition() };
  }
  const box = el ? scrollableAncestor(el) : null;
  const direction = params.direction ?? "down";
  const viewW = box ? box.clientWidth : window.innerWidth;
  const viewH = box ? box.clientHeight : window.innerHeight;
  const [dx, dy] = {
    up: [0, -(params.amount ?? viewH * 0.8)],
    down: [0, params.amount ?? viewH * 0.8],
    left: [-(params.amount ?? viewW * 0.8), 0],
    right: [params.amount ?? viewW * 0.8, 0],
    top: [0, -Number.MAX_SAFE_INTEGER],
    bottom: [0, Number.MAX_SAFE_INTEGER],
  }[direction] as [number, number];
  const before = position(box);
  if (box) box.scrollBy({ left: dx, top: dy, behavior: "instant" });
  else window.scrollBy({ left: dx, top: dy, behavior: "instant" });
  await nextFrame(el ?? undefined);
  const after = position(box);
  return {
    scrolled: box ? summarize(box) : "page",
    direction,
    moved: after.x !== before.x || after.y !== before.y,
    at_end: atEnd(box, direction),
    ...pagePosition(),
    ...(box ? { container_x: after.x, container_y: after.y } : {}),
  };
});

function pagePosition() {
  return { x: Math.round(window.scrollX), y: Math.round(window.scrollY) };
}

function position(box: Element | null) {
  return box ? { x: box.scrollLeft, y: box.scrollTop } : { x: window.scrollX, y: window.scrollY };
}

function atEnd(box: Element | null, direction: string): boolean {
  const el = box ?? document.scrollingElement ?? document.documentElement;
  if (direction === "up" || direction === "top") return el.scrollTop <= 0;
  if (direction === "left") return el.scrollLeft <= 0;
  if (direction === "right") return el.scrollLeft + el.clientWidth >= el.scrollWidth - 1;
  return el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
}

/** The element itself or nearest ancestor that scrolls; null means the page. */
function scrollableAncestor(el: Element): Element | null {
  for (let n: Element | null = el; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    const style = getComputedStyle(n);
    const scrollsY = /(auto|scroll)/.test(style.overflowY) && n.scrollHeight > n.clientHeight;
    const scrollsX = /(auto|scroll)/.test(style.overflowX) && n.scrollWidth > n.clientWidth;
    if (scrollsY || scrollsX) return n;
  }
  return null;
}
