import type { ChatMessage } from "../llm/chat-completion.ts";
import { toolTurnMessages } from "../llm/tool-turn.ts";
import { cut, estimateTokens } from "./tokens.ts";
import type { HistoryCall, HistoryTurn } from "./turns.ts";

// Pure: which of the earlier turns go into the prompt (docs/agents.md, "Memory"). All of them as
// chat messages when they fit the budget. Otherwise newest first, whole turns while they fit in
// three quarters of it; from the first turn that does not, one summary line per turn while those
// fit in the rest, at most MEMORY_SUMMARY_LINES; older turns are dropped.

/** RUNNER_MEMORY_TOKENS when unset: about as much as the page snapshot the extension sends. */
export const DEFAULT_MEMORY_TOKENS = 4_000;
export const MEMORY_SUMMARY_LINES = 20;
const SUMMARY_LINE_CHARS = 240;
/** The share of the budget whole turns may take when older turns need summary lines. */
const WHOLE_SHARE = 0.75;
const SUMMARY_HEADING = "Earlier in this conversation (summarised, oldest first):";

export interface FittedHistory {
  /** The turns kept whole, oldest first, as chat messages. */
  messages: ChatMessage[];
  /** One line per older turn, oldest first. */
  summary: string[];
  dropped: number;
}

/** The estimate the budget counts in: a turn's messages as JSON, four characters a token. */
export function messageTokens(messages: ChatMessage[]): number {
  return estimateTokens(JSON.stringify(messages));
}

/**
 * Fit `turns` (oldest first) into `budget` tokens. `takenIds` are the tool call ids of the current
 * task: an earlier call with the same id is renamed, as some providers refuse a repeated id.
 */
export function fitHistory(turns: HistoryTurn[], budget: number, takenIds: ReadonlySet<string> = new Set()): FittedHistory {
  const unique = uniqueIds(turns, takenIds);
  const rendered = unique.map(turnMessages);
  const costs = rendered.map(messageTokens);
  // When not everything fits, a share of the budget is kept for the summary lines of the older turns.
  const all = costs.reduce((a, b) => a + b, 0);
  const wholeBudget = all <= budget ? budget : Math.floor(budget * WHOLE_SHARE);
  const whole: ChatMessage[][] = [];
  let used = 0;
  let i = unique.length - 1;
  for (; i >= 0 && used + costs[i]! <= wholeBudget; i--) {
    whole.unshift(rendered[i]!);
    used += costs[i]!;
  }
  const summary: string[] = [];
  for (; i >= 0 && summary.length < MEMORY_SUMMARY_LINES; i--) {
    const lines = [summaryLine(unique[i]!), ...summary];
    if (used + estimateTokens(summaryBlock(lines)) > budget) break;
    summary.unshift(lines[0]!);
  }
  return { messages: whole.flat(), summary, dropped: i + 1 };
}

/** The summary lines as the system message carries them, after the agent's own system prompt. */
export function summaryBlock(lines: string[]): string {
  return lines.length ? `${SUMMARY_HEADING}\n${lines.map((l) => `- ${l}`).join("\n")}` : "";
}

/** A turn as the conversation it was: the user, the agent's tool steps with their results, its answers. */
export function turnMessages(turn: HistoryTurn): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "user", content: turn.user }];
  for (const step of turn.steps) {
    const results = new Map(step.map((c) => [c.toolCallId, c.result]));
    out.push(...toolTurnMessages(step, (id) => results.get(id) ?? "no result"));
  }
  for (const a of turn.answers) out.push({ role: "assistant", content: a });
  return out;
}

/** "user: ...; you called browser_click {"ref":"e12"} (ok); you answered: ..." */
export function summaryLine(turn: HistoryTurn): string {
  const flat = (s: string, max: number) => cut(s.replace(/\s+/g, " ").trim(), max);
  const parts = [`user: "${flat(turn.user, 80)}"`];
  const calls = turn.steps.flat();
  if (calls.length) {
    const shown = calls.slice(0, 3).map((c) => `${c.name} ${flat(JSON.stringify(c.arguments), 40)} (${c.outcome})`);
    if (calls.length > 3) shown.push(`${calls.length - 3} more`);
    parts.push(`you called ${shown.join(", ")}`);
  }
  if (turn.answers.length) parts.push(`you answered: "${flat(turn.answers.join(" "), 80)}"`);
  return cut(parts.join("; "), SUMMARY_LINE_CHARS);
}

/** Newest first, so a newer turn keeps its ids whatever older turns come with it. */
function uniqueIds(turns: HistoryTurn[], taken: ReadonlySet<string>): HistoryTurn[] {
  const seen = new Set(taken);
  const rename = (c: HistoryCall): HistoryCall => {
    let id = c.toolCallId;
    for (let n = 2; seen.has(id); n++) id = `${c.toolCallId}~${n}`;
    seen.add(id);
    return id === c.toolCallId ? c : { ...c, toolCallId: id };
  };
  return turns
    .toReversed()
    .map((t) => ({ ...t, steps: t.steps.map((s) => s.map(rename)) }))
    .toReversed();
}
