// The fixed policy both snapshot sources are driven by: it reads only the snapshot text, finds the line
// a model would act on (by role and name, near the task's anchor words), and says what to do with its ref.
// No model: the same text always gives the same action, so the two sources are compared on what they
// print, not on a model's luck. Pure: no IO, no clock.

/** One step of a task, as a model would read it from the goal: "click the Archive button of Dana's offsite mail". */
export interface Step {
  act: "click" | "fill" | "select" | "press";
  /** Words on the line that locates the item (a mail's subject, a card's title); absent: anywhere. */
  anchor?: string;
  /** Roles the target may have; absent: the anchor's own line (the row itself). */
  role?: string[];
  /** Names the target may have (case-insensitive: equal beats starts-with beats contains); absent: any name. */
  name?: string[];
  /** The text to fill, the option to select, the key to press. */
  value?: string;
}

export interface Line {
  index: number;
  indent: number;
  role: string;
  name: string;
  /** What follows the colon (a text line's words, a textbox's value). */
  text: string;
  ref?: string;
  raw: string;
  parent: number;
  /** The names and text of its descendants, in order. */
  words: string;
}

export type Action =
  | { type: "click" | "hover"; ref: string }
  | { type: "fill" | "select"; ref: string; value: string }
  | { type: "press"; ref: string; key: string }
  | { type: "scroll"; ref: string };

/** What the policy tried for the current step, so a fallback is not repeated. */
export interface StepMemory {
  scrolls: Map<string, number>;
  hovered: Set<string>;
  failed: Set<string>;
}

export const newMemory = (): StepMemory => ({ scrolls: new Map(), hovered: new Set(), failed: new Set() });

/** Scrolls of one pane for one step at most: a pane of 60 rows at ~12 rows a screen. */
const MAX_SCROLLS = 8;

const LINE = /^(\s*)- ([a-z/]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/;

export function parseSnapshot(text: string): Line[] {
  const lines: Line[] = [];
  const stack: Line[] = [];
  for (const raw of text.split("\n")) {
    const m = LINE.exec(raw);
    if (!m) continue;
    const indent = m[1]!.length;
    const rest = m[4] ?? "";
    const colon = rest.search(/:\s/);
    const line: Line = {
      index: lines.length,
      indent,
      role: m[2]!,
      name: (m[3] ?? "").replace(/\\"/g, '"'),
      text: colon >= 0 ? rest.slice(colon + 1).trim().replace(/^"|"$/g, "") : "",
      ref: /\[ref=([a-z0-9]+)\]/.exec(rest)?.[1],
      raw,
      parent: -1,
      words: "",
    };
    while (stack.length && stack.at(-1)!.indent >= indent) stack.pop();
    line.parent = stack.at(-1)?.index ?? -1;
    const said = line.role.startsWith("/") ? "" : line.name || line.text;
    if (said) for (const up of stack) up.words = up.words ? `${up.words} ${said}` : said;
    stack.push(line);
    lines.push(line);
  }
  return lines;
}

const lower = (s: string) => s.toLowerCase();

/** What a line is called: its name, else its text, else the words its children print (an option's cells). */
function calledOf(line: Line): string {
  return line.name || line.text || line.words;
}

/** 3 equal, 2 starts with, 1 contains, 0 no match. */
function nameScore(line: Line, names: string[] | undefined): number {
  if (!names) return 1;
  const own = lower(calledOf(line));
  let best = 0;
  for (const n of names.map(lower)) {
    if (own === n) best = Math.max(best, 3);
    else if (own.startsWith(n)) best = Math.max(best, 2);
    else if (own.includes(n)) best = Math.max(best, 1);
  }
  return best;
}

function isMatch(line: Line, step: Step): boolean {
  return (step.role ?? []).includes(line.role) && nameScore(line, step.name) > 0;
}

/** The best-named matches only: "Save" over "Save draft" when the goal says Save. */
function best(lines: Line[], step: Step): Line[] {
  const top = Math.max(0, ...lines.map((l) => nameScore(l, step.name)));
  return lines.filter((l) => nameScore(l, step.name) === top);
}

function inSubtree(lines: Line[], root: number, i: number): boolean {
  for (let p = i; p >= 0; p = lines[p]!.parent) if (p === root) return true;
  return false;
}

/** The child of `root` whose subtree holds line `i` (or `i` itself). */
function childOf(lines: Line[], root: number, i: number): number {
  let p = i;
  while (lines[p]!.parent !== root) p = lines[p]!.parent;
  return p;
}

function anchorLine(lines: Line[], anchor: string): Line | undefined {
  const a = lower(anchor);
  return lines.find((l) => lower(l.raw).includes(a));
}

/**
 * The target in the anchor's own group: climbing from the anchor, the first box whose subtree holds a
 * match. Several there: matches inside other items of a list are other items' (none of ours: not found);
 * matches that are plain siblings are read in order, the first after the anchor (a label, then its control).
 */
function nearAnchor(lines: Line[], anchor: Line, step: Step): Line | undefined {
  for (let a = anchor.index; a >= 0; a = lines[a]!.parent) {
    const found = best(lines.filter((l) => inSubtree(lines, a, l.index) && isMatch(l, step)), step);
    if (found.length === 0) continue;
    if (found.length === 1 || a === anchor.index) return found[0];
    const mine = childOf(lines, a, anchor.index);
    if (found.some((l) => l.parent !== a)) return undefined;
    return found.find((l) => l.index > mine);
  }
  return undefined;
}

/** A line without a ref is acted on through the nearest sibling with one (a switch's drawn label), else its box. */
function withRef(lines: Line[], line: Line): Line | undefined {
  if (line.ref) return line;
  const siblings = lines.filter((l) => l.parent === line.parent && l.ref);
  const after = siblings.find((l) => l.index > line.index);
  if (after) return after;
  const before = siblings.filter((l) => l.index < line.index).at(-1);
  if (before) return before;
  for (let p = line.parent; p >= 0; p = lines[p]!.parent) if (lines[p]!.ref) return lines[p];
  return undefined;
}

/**
 * No control with the wanted name near the anchor, but its group has exactly one control of the role and
 * it has no name at all (a card's lone icon button): a model takes that one. Two or more: it cannot tell.
 */
function onlyUnnamed(lines: Line[], anchor: Line, step: Step): Line | undefined {
  const unnamed = nearAnchor(lines, anchor, { ...step, name: undefined });
  if (!unnamed || calledOf(unnamed)) return undefined;
  const group = unnamed.parent;
  const same = lines.filter((l) => l.parent === group && (step.role ?? []).includes(l.role));
  return same.length === 1 ? unnamed : undefined;
}

/** The item a line is in that can be acted on: the line itself, else its nearest box with a ref. */
function itemOf(lines: Line[], line: Line): Line | undefined {
  for (let p = line.index; p >= 0; p = lines[p]!.parent) if (lines[p]!.ref) return lines[p];
  return undefined;
}

export function findTarget(lines: Line[], step: Step): Line | undefined {
  if (step.anchor) {
    const anchor = anchorLine(lines, step.anchor);
    if (!anchor) return undefined;
    if (!step.role) return itemOf(lines, anchor);
    const target = nearAnchor(lines, anchor, step) ?? (step.name ? onlyUnnamed(lines, anchor, step) : undefined);
    return target && withRef(lines, target);
  }
  const target = best(lines.filter((l) => isMatch(l, step)), step)[0];
  return target && withRef(lines, target);
}

const HINT = /\((\d+) more ([a-z]+) (?:above, \d+ )?below[^)]*: scroll ([a-z0-9]+)\)|\(\d+ below: scroll ([a-z0-9]+)\)/g;

/** The panes the snapshot says hold more below, those listing the target's role first. */
function scrollHints(text: string, step: Step): string[] {
  const hints: { ref: string; word: string }[] = [];
  for (const m of text.matchAll(HINT)) hints.push({ ref: (m[3] ?? m[4])!, word: m[2] ?? "" });
  const wanted = (step.role ?? []).map((r) => `${r}s`);
  return [...hints.filter((h) => wanted.includes(h.word)), ...hints.filter((h) => !wanted.includes(h.word))].map((h) => h.ref);
}

function actOn(ref: string, step: Step): Action {
  if (step.act === "fill" || step.act === "select") return { type: step.act, ref, value: step.value ?? "" };
  if (step.act === "press") return { type: "press", ref, key: step.value ?? "Enter" };
  return { type: "click", ref };
}

/**
 * The next action for `step` given the snapshot just read; undefined when the policy has nothing left to
 * try. In order: the target's ref; a pane the snapshot says holds more below; a hover of the anchor's
 * item (controls that appear on hover); after a failed action, another line with the wanted words.
 */
export function decide(text: string, step: Step, memory: StepMemory): Action | undefined {
  const lines = parseSnapshot(text);
  const target = findTarget(lines, step);
  if (target?.ref && !memory.failed.has(target.ref)) return actOn(target.ref, step);
  if (target?.ref) {
    // The action on it failed: a model tries the line that shows the same words (a drawn label).
    // Its siblings first (the label beside a hidden input), then what the snapshot says is clickable.
    const words = lower(step.name?.[0] ?? step.anchor ?? "");
    const others = lines.filter((l) => l.ref && !memory.failed.has(l.ref) && words && lower(calledOf(l)).includes(words));
    const rank = (l: Line) => (l.parent === target.parent ? 2 : 0) + (l.raw.includes("[cursor=pointer]") ? 1 : 0);
    const other = others.sort((a, b) => rank(b) - rank(a))[0];
    return other?.ref ? actOn(other.ref, step) : undefined;
  }
  for (const ref of scrollHints(text, step)) {
    const n = memory.scrolls.get(ref) ?? 0;
    if (n >= MAX_SCROLLS) continue;
    memory.scrolls.set(ref, n + 1);
    return { type: "scroll", ref };
  }
  if (step.anchor) {
    const anchor = anchorLine(lines, step.anchor);
    const item = anchor && itemOf(lines, anchor);
    if (item?.ref && !memory.hovered.has(item.ref)) {
      memory.hovered.add(item.ref);
      return { type: "hover", ref: item.ref };
    }
  }
  return undefined;
}
