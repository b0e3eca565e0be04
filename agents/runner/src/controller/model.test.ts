import { describe, expect, it } from "vitest";
import { TASK_SKILLS } from "@crumbs/schemas";
import { choiceOf, controllerTools, scoutCandidatesOf } from "./model.ts";

const call = (name: string, args: unknown) => ({ content: null, toolCalls: [{ id: "c1", type: "function" as const, function: { name, arguments: JSON.stringify(args) } }] });

describe("the model as the controller's fallback", () => {
  it("sees one skill tool per enabled skill beside the agent's browser tools", () => {
    const names = controllerTools(new Set(["login", "open_item"]), ["browser_click"]).map((t) => t.function.name);
    expect(names).toEqual(["skill_login", "skill_open_item", "browser_click"]);
    expect(controllerTools(new Set(TASK_SKILLS), []).length).toBe(TASK_SKILLS.length);
  });
  it("answers a skill with its slots, a checked browser action, or text", () => {
    expect(choiceOf(call("skill_search", { slots: { query: "hats" } }), ["browser_*"])).toEqual({ kind: "skill", skill: "search", slots: { query: "hats" } });
    expect(choiceOf(call("browser_click", { ref: "e3" }), ["browser_*"])).toEqual({ kind: "action", action: "click", params: { ref: "e3" } });
    expect(choiceOf(call("browser_click", {}), ["browser_*"])).toMatchObject({ kind: "text", content: expect.stringContaining("could not be used") });
    expect(choiceOf(call("browser_click", { ref: "e3" }), ["browser_snapshot"])).toMatchObject({ kind: "text" });
    expect(choiceOf(call("skill_fly", {}), ["browser_*"])).toMatchObject({ kind: "text", content: expect.stringContaining("unknown skill") });
    expect(choiceOf({ content: " Done. ", toolCalls: [] }, [])).toEqual({ kind: "text", content: "Done." });
  });
});

describe("the scout's answer", () => {
  it("is at most five candidates from its JSON, and none when it is not JSON", () => {
    const six = Array.from({ length: 6 }, (_, i) => ({ ref: `e${i}`, confidence: 0.5, risk: "low", why: "fits" }));
    expect(scoutCandidatesOf({ content: `Here: ${JSON.stringify({ candidates: six })}`, toolCalls: [] })).toHaveLength(5);
    expect(scoutCandidatesOf({ content: '{"candidates": [{"ref": "e1", "confidence": 0.8, "risk": "extreme"}]}', toolCalls: [] })).toEqual([{ ref: "e1", confidence: 0.8, risk: "medium", why: "" }]);
    expect(scoutCandidatesOf({ content: "I think e1", toolCalls: [] })).toEqual([]);
    expect(scoutCandidatesOf({ content: '{"candidates": [{"ref": "bad ref", "confidence": 2}]}', toolCalls: [] })).toEqual([]);
  });
});
