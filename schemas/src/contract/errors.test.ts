import { describe, expect, it } from "vitest";
import { createWorkBudget } from "../budget.ts";
import { renderLlmView } from "../llm-view/llm-view.ts";
import { validateLlmHints } from "../llm-view/llm-hints-validate.ts";
import { compileSelector, parseSelectorParam } from "../selector/selector-compile.ts";
import { errorBodySchema, errorDetailsSchema } from "./error-body.ts";
import {
  CrumbsError,
  ERROR_CODES,
  InvalidLlmHintsError,
  InvalidRequestError,
  InvalidSelectorError,
  LlmViewError,
  SchemaValidationError,
} from "./errors.ts";
import { validateContext } from "./known-schemas.ts";
import { parseCreateBreadcrumbBody } from "./request-bodies.ts";

function thrown(fn: () => unknown): CrumbsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CrumbsError) return e;
    throw e;
  }
  throw new Error("did not throw");
}

describe("error details", () => {
  const view = (context: Record<string, unknown>, hints: unknown) =>
    renderLlmView({ schema_name: "t.v1", title: "t", tags: [], context, llm_hints: hints as never });

  it.each<[string, () => unknown]>([
    ["a selector of the wrong shape", () => compileSelector({ schema_name: 5 })],
    ["a selector condition that does not compile", () => compileSelector({ context_match: [{ path: "$.a", op: "in", value: 1 }] })],
    ["a selector that is not JSON", () => parseSelectorParam("{")],
    ["hints of the wrong shape", () => validateLlmHints({ mode: "both" })],
    ["a template that does not compile", () => validateLlmHints({ transform: { t: { type: "template", template: "{{#each}}" } } })],
    ["too many transforms", () => validateLlmHints({ transform: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`t${i}`, { type: "literal", literal: i }])) })],
    ["a __proto__ key in hints", () => validateLlmHints(JSON.parse('{"transform": {"__proto__": {}}}'))],
    ["a known schema's context", () => validateContext("chat.message.v1", { role: "robot" })],
    ["a context that is not an object", () => validateContext("t.v1", [])],
    ["a body of the wrong shape", () => parseCreateBreadcrumbBody({ title: "" })],
    ["a budget's units", () => createWorkBudget({ units: 1, what: "selector" }).spend(2)],
    ["a view whose hints fail at read time", () => view({ a: 1 }, { transform: { t: { type: "template", template: '{{constructor.constructor "x"}}' } } })],
  ])("%s: details are an object of the one shape, with a code the contract lists", (_, fn) => {
    const err = thrown(fn);
    expect(Object.keys(ERROR_CODES)).toContain(err.code);
    expect(errorBodySchema.parse(err.toJSON())).toEqual(err.toJSON());
    // Each of these is about the input, so it says where: issues, or the limit it ran into.
    expect(errorDetailsSchema.safeParse(err.details).success, JSON.stringify(err.details)).toBe(true);
    expect(err.details?.issues ?? err.details?.limit).toBeDefined();
  });
});

describe("the engines' error classes", () => {
  it.each([
    [InvalidSelectorError, "invalid_selector", 422],
    [InvalidLlmHintsError, "invalid_llm_hints", 422],
    [LlmViewError, "invalid_llm_hints", 422],
    [SchemaValidationError, "schema_validation_failed", 422],
    [InvalidRequestError, "invalid_request", 400],
  ] as const)("%o answers its code and status, under its own name, with the details given", (Class, code, status) => {
    const details = { issues: [{ path: ["a"], code: "invalid_type", message: "expected a string" }] };
    const err = new Class("bad input", details);
    expect(err).toBeInstanceOf(CrumbsError);
    expect(err).toMatchObject({ name: Class.name, code, status, message: "bad input", details });
    expect(err.toJSON()).toEqual({ error: code, message: "bad input", details });
  });

  it("keeps the classes apart: a view failure is not an invalid-hints error, though both say invalid_llm_hints", () => {
    expect(new LlmViewError("x")).not.toBeInstanceOf(InvalidLlmHintsError);
    expect(new InvalidLlmHintsError("x")).not.toBeInstanceOf(LlmViewError);
  });
});
