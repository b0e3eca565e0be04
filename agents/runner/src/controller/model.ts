import { TASK_SKILLS, type Pcd, type TaskContext, type TaskSkill } from "@crumbs/schemas";
import type { ChatMessage, ChatResult, ChatTool } from "../llm/chat-completion.ts";
import { browserTools, parseToolCall } from "../llm/browser-tools.ts";
import { z } from "zod";
import { MAX_SCOUT_CANDIDATES, type ModelChoice, type ScoutCandidate } from "./model-fallback.ts";
import type { QueryAnswer } from "./skills.ts";

// The model as the controller's fallback: asked only when no skill fits with confidence and
// exploration found nothing. It sees the goal, what was tried and the page capability view, and
// answers with one tool call: a skill by name (with slot values), one browser action, or text.

const SKILL_HELP: Record<TaskSkill, string> = {
  login: "Sign in with the login form on this page (slots: username). The user types the password.",
  search: "Search with the page's search form (slots: query).",
  fill_form: "Fill in a form on this page and submit it after the user approves (slots: one per field label, e.g. name, email).",
  paginate: "Go to the next page of a list.",
  navigate_menu: "Open the menu link whose label names the goal's object.",
  open_item: "On a page listing the goal's items, find one item and open or download it (slots: item).",
  checkout: "Go from the cart to the checkout form, fill what the goal gives and place the order once the user approves (slots: one per field label).",
};

const SKILL_PREFIX = "skill_";

export function skillTools(enabled: ReadonlySet<TaskSkill>): ChatTool[] {
  return TASK_SKILLS.filter((s) => enabled.has(s)).map((s) => ({
    type: "function" as const,
    function: {
      name: `${SKILL_PREFIX}${s}`,
      description: SKILL_HELP[s],
      parameters: {
        type: "object",
        properties: { slots: { type: "object", additionalProperties: { type: "string" }, description: "Values for the skill's slots" } },
      },
    },
  }));
}

export function controllerTools(enabled: ReadonlySet<TaskSkill>, allowedBrowserTools: readonly string[] | undefined): ChatTool[] {
  return [...skillTools(enabled), ...browserTools(allowedBrowserTools)];
}

export function controllerMessages(systemPrompt: string, task: TaskContext, pcd: Pcd): ChatMessage[] {
  const tried = task.history
    .slice(-12)
    .map((h) => `- ${h.call.action}${h.selector ? ` ${h.selector}` : ""}: ${h.result.ok ? "ok" : `failed (${h.result.code ?? "error"})`}${h.observation ? ` -> ${h.observation.slice(0, 200)}` : ""}`)
    .join("\n");
  return [
    { role: "system", content: systemPrompt },
    {
      role: "user",
      content: [
        `Goal: ${task.goal}`,
        task.message ? `Why you are asked: ${task.message}` : "",
        tried ? `Steps so far:\n${tried}` : "",
        `The page now (its capability view; refs act as they are):\n\`\`\`json\n${JSON.stringify(pcd)}\n\`\`\``,
        "Call one skill_* tool when a skill fits, else one browser_* tool for the next step, or answer in text when the goal is done or cannot be done.",
      ]
        .filter(Boolean)
        .join("\n\n"),
    },
  ];
}

export function choiceOf(result: ChatResult, allowedBrowserTools: readonly string[] | undefined): ModelChoice {
  const call = result.toolCalls[0];
  if (!call) return { kind: "text", content: result.content?.trim() ?? "" };
  const name = call.function.name;
  if (name.startsWith(SKILL_PREFIX)) {
    const skill = name.slice(SKILL_PREFIX.length) as TaskSkill;
    if (!(TASK_SKILLS as readonly string[]).includes(skill)) return { kind: "text", content: `The model called an unknown skill ${name}.` };
    let slots: Record<string, string> = {};
    try {
      const args = JSON.parse(call.function.arguments || "{}") as { slots?: Record<string, unknown> };
      slots = Object.fromEntries(Object.entries(args.slots ?? {}).map(([k, v]) => [k, String(v)]));
    } catch {
      // Arguments that are not JSON: the skill binds from the goal alone.
    }
    return { kind: "skill", skill, slots };
  }
  const parsed = parseToolCall(name, call.function.arguments, allowedBrowserTools);
  if (!parsed.ok) return { kind: "text", content: `The model's step could not be used: ${parsed.error}` };
  return { kind: "action", action: parsed.action, params: parsed.params };
}

// The scout: a read-only helper for an ambiguous binding. It sees the goal, the step, the query's
// answers and the page capability view, has no tools, and answers JSON: at most five candidates,
// best first, each with its ref, a confidence, the risk of acting on it and why.

export const SCOUT_PROMPT =
  'You are a read-only scout for a browser task. You never act. Given the goal, the step about to run, the elements a search of the page found and the page capability view, rank the elements that fit the step. Answer only JSON: {"candidates": [{"ref": "e12", "confidence": 0.9, "risk": "low", "why": "..."}]}, at most 5, best first, refs only from the elements listed.';

const scoutAnswerSchema = z.object({
  candidates: z
    .array(
      z.object({
        ref: z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/),
        confidence: z.number().min(0).max(1),
        risk: z.enum(["low", "medium", "high"]).catch("medium"),
        why: z.string().max(500).catch(""),
      }),
    )
    .max(20),
});

export function scoutMessages(task: TaskContext, step: string, answers: readonly QueryAnswer[], pcd: Pcd | undefined): ChatMessage[] {
  return [
    { role: "system", content: SCOUT_PROMPT },
    {
      role: "user",
      content: [
        `Goal: ${task.goal}`,
        `Step: ${step}`,
        `Elements found:\n${answers.map((a) => `- ${a.ref} ${a.role} "${a.name}"`).join("\n")}`,
        pcd ? `The page (capability view):\n\`\`\`json\n${JSON.stringify(pcd)}\n\`\`\`` : "",
      ]
        .filter(Boolean)
        .join("\n\n"),
    },
  ];
}

/** The scout's answer, or no candidates when it is not the JSON asked for (the controller's own ranking stands). */
export function scoutCandidatesOf(result: ChatResult): ScoutCandidate[] {
  const text = result.content ?? "";
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return [];
  try {
    const parsed = scoutAnswerSchema.safeParse(JSON.parse(text.slice(start, end + 1)));
    return parsed.success ? parsed.data.candidates.slice(0, MAX_SCOUT_CANDIDATES) : [];
  } catch {
    return [];
  }
}
