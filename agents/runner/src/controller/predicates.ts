import type { GoalPredicate, Pcd } from "@crumbs/schemas";
import { stem, words } from "./goal.ts";

// Goal predicates judged on the page capability view alone: a form by its purpose (and the words of
// its label or fields), an action by kind and words, a collection with the expected words in its
// label, samples or item template, a URL part, a title's words. Each gives 0..1; the page's score is
// the best of them, and a page scoring 1 is a goal page.

export interface Judgement {
  score: number;
  /** Which predicate matched best, in words, for the step record. */
  why: string;
}

const has = (text: string | undefined, ws: readonly string[]) => {
  if (!text) return false;
  const own = new Set(words(text).map(stem));
  return ws.some((w) => own.has(stem(w)));
};
/** Every word of a phrase ("October 2026") in the text. */
const hasPhrase = (texts: ReadonlyArray<string | undefined>, phrase: string) => {
  const own = new Set(texts.flatMap((t) => (t ? words(t).map(stem) : [])));
  return words(phrase).every((w) => own.has(stem(w)));
};

function judgeOne(p: GoalPredicate, pcd: Pcd): number {
  const ws = p.words ?? [];
  switch (p.kind) {
    case "form": {
      let best = 0;
      for (const f of pcd.forms) {
        if (p.purpose && f.purpose !== p.purpose) continue;
        const labelled = !ws.length || has(f.label, ws) || f.fields.some((x) => has(x.label, ws)) || has(f.submit?.label, ws);
        const fields = p.fields ?? [];
        const found = fields.filter((w) => f.fields.some((x) => has(x.label, [w]))).length;
        best = Math.max(best, (labelled ? 0.6 : 0.2) + (fields.length ? (0.4 * found) / fields.length : 0.4));
      }
      return best;
    }
    case "action":
      return pcd.actions.some((a) => (!p.action_kind || a.kind === p.action_kind) && (!ws.length || has(a.label, ws))) ? 1 : 0;
    case "collection": {
      let best = 0;
      for (const c of pcd.collections) {
        const texts = [c.label, ...(c.samples ?? []), ...c.template.map((t) => t.label)];
        const named = !ws.length || texts.some((t) => has(t, ws)) || has(pcd.title, ws);
        if (!named) continue;
        const fields = p.fields ?? [];
        // Expected fields are looked for in what the view shows of the items; an item further down
        // the list is found by query when the skill runs, so a missing one costs less than a name.
        const found = fields.filter((f) => hasPhrase(texts, f)).length;
        best = Math.max(best, fields.length ? 0.8 + (0.2 * found) / fields.length : 1);
      }
      return best >= 0.8 ? 1 : best;
    }
    case "url":
      return p.url_contains && pcd.url.includes(p.url_contains) ? 1 : 0;
    case "text":
      return has(pcd.title, ws) ? 1 : 0;
  }
}

export function judgePage(pcd: Pcd, predicates: readonly GoalPredicate[]): Judgement {
  let best: Judgement = { score: 0, why: "no goal predicate matches" };
  for (const p of predicates) {
    const score = Math.round(judgeOne(p, pcd) * 100) / 100;
    if (score > best.score) best = { score, why: `${p.kind}${p.purpose ? ` ${p.purpose}` : ""}${p.words?.length ? ` "${p.words.join(" ")}"` : ""}` };
  }
  return best;
}
