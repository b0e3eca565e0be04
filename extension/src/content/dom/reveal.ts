import { MIN_OPACITY } from "./visibility.ts";

// Controls drawn only on hover or focus (`.row:hover .actions { opacity: 1 }`, Tailwind's group-hover):
// at rest they are transparent, but a user who moves the mouse there sees and uses them, so the snapshot
// lists them, marked, and an action hovers them first. Which transparent element such a rule reveals is
// read from the page's style sheets: each rule with :hover or :focus that makes something opaque again,
// its selector without the pseudo-class, is matched against the transparent element.

export type Reveal = "hover" | "focus";

interface Rule {
  selector: string;
  kind: Reveal;
}

/** Style rules read at most, per walk: the bound on a page with a huge style sheet. */
const MAX_RULES = 5_000;
const PSEUDO = /:(hover|focus-within|focus-visible|focus)(?![\w-])/g;

function reveals(style: CSSStyleDeclaration): boolean {
  const opacity = style.getPropertyValue("opacity");
  if (opacity && Number(opacity) > MIN_OPACITY) return true;
  return style.getPropertyValue("visibility") === "visible";
}

function collect(rules: CSSRuleList, out: Rule[], budget: { left: number }): void {
  for (const rule of rules) {
    if (budget.left-- <= 0) return;
    if (rule instanceof CSSStyleRule) {
      if (!PSEUDO.test(rule.selectorText)) continue;
      PSEUDO.lastIndex = 0;
      if (!reveals(rule.style)) continue;
      for (const part of rule.selectorText.split(",")) {
        const kinds = [...part.matchAll(PSEUDO)].map((m) => m[1]);
        if (kinds.length === 0) continue;
        const selector = part.replace(PSEUDO, "").trim();
        if (selector) out.push({ selector, kind: kinds.includes("hover") ? "hover" : "focus" });
      }
    } else if ("cssRules" in rule) {
      collect((rule as CSSGroupingRule).cssRules, out, budget);
    }
  }
}

/** The page's reveal rules, read once per walk (call it lazily: most pages have no transparent control). */
export function revealRules(doc: Document): Rule[] {
  const out: Rule[] = [];
  const budget = { left: MAX_RULES };
  for (const sheet of [...doc.styleSheets, ...doc.adoptedStyleSheets]) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // a cross-origin sheet without CORS cannot be read
    }
    collect(rules, out, budget);
  }
  return out;
}

/** Whether a hover or focus rule makes this transparent element opaque; undefined if none does. */
export function revealOf(el: Element, rules: Rule[]): Reveal | undefined {
  for (const r of rules) {
    try {
      if (el.matches(r.selector)) return r.kind;
    } catch {
      // a selector this engine cannot match alone (a stripped pseudo-element): not a reveal
    }
  }
  return undefined;
}
