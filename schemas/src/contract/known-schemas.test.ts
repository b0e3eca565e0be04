import { z } from "zod";
import { describe, expect, it } from "vitest";
import { ACTION_ERROR_CODES } from "./action-result-schema.ts";
import { actionParamsSchemas, BROWSER_ACTIONS } from "./browser-action-schema.ts";
import { InvalidLlmHintsError, InvalidRequestError, SchemaValidationError } from "./errors.ts";
import { REFERENCE_PAGE_CONTEXT } from "./fixtures/page-context-example.ts";
import { knownContextSchemas, validateContext } from "./known-schemas.ts";
import { parseCreateBreadcrumbBody, parsePatchBreadcrumbBody } from "./request-bodies.ts";
import { schemaNameSchema, tagSchema } from "./names.ts";
import { breadcrumbSchema } from "./breadcrumb.ts";

const action = (a: string, params: unknown, extra: Record<string, unknown> = {}) =>
  validateContext("browser.action.v1", { action: a, params, target_extension: "ext1", request_id: "r1", ...extra });

describe("names", () => {
  it("schema names are dotted and versioned", () => {
    for (const ok of ["browser.page.context.v1", "x.v1", "my_app.thing-2.v10"]) expect(schemaNameSchema.safeParse(ok).success).toBe(true);
    for (const bad of ["browser", "Browser.v1", "a.b", "a..v1", "a.v1.", "a b.v1", "a.*.v1", "a.>.v1", "x".repeat(200) + ".v1"]) {
      expect(schemaNameSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
  it("tags have no whitespace or control characters", () => {
    expect(tagSchema.safeParse("url:github.com").success).toBe(true);
    for (const bad of ["", "a b", "a\tb", "a\u0000", "x".repeat(201)]) expect(tagSchema.safeParse(bad).success).toBe(false);
  });
});

describe("validateContext", () => {
  it("accepts the reference page context and the extension's first 'Loading...' version", () => {
    expect(validateContext("browser.page.context.v1", REFERENCE_PAGE_CONTEXT).url).toBe("https://github.com/rcrt/docs");
    expect(() => validateContext("browser.page.context.v1", { url: "about:blank", domain: "loading", title: "Loading...", session: {} })).not.toThrow();
  });
  it("keeps extra fields", () => {
    expect(validateContext("chat.message.v1", { role: "user", content: "hi", session_id: "s", extra: 1 }).extra).toBe(1);
  });
  it("refuses a known schema's missing or mistyped fields with the zod issues", () => {
    try {
      validateContext("browser.page.context.v1", { url: 5, domain: "d", title: "t" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SchemaValidationError);
      expect((e as SchemaValidationError).status).toBe(422);
      expect((e as SchemaValidationError).code).toBe("schema_validation_failed");
      expect((e as SchemaValidationError).details).toEqual({
        issues: expect.arrayContaining([expect.objectContaining({ path: ["context", "url"], code: "invalid_type" })]),
      });
    }
    expect(() => validateContext("chat.message.v1", { role: "assistant", content: "x", session_id: "s" })).toThrow(SchemaValidationError);
    expect(() => validateContext("agent.response.v1", { agent_id: "a", content: "x", session_id: "s", in_reply_to: { id: "nope", version: 1 } })).toThrow(
      SchemaValidationError,
    );
    expect(() => validateContext("schema.def.v1", { defines: "Bad Name" })).toThrow(SchemaValidationError);
  });
  it("accepts any JSON object for an unknown schema, nothing else", () => {
    expect(validateContext("my.custom.v3", { anything: [1, { x: null }] })).toEqual({ anything: [1, { x: null }] });
    expect(() => validateContext("my.custom.v3", [])).toThrow(SchemaValidationError);
    expect(() => validateContext("my.custom.v3", "x")).toThrow(SchemaValidationError);
  });
  it("refuses __proto__ keys anywhere", () => {
    expect(() => validateContext("my.custom.v3", JSON.parse('{"a": {"__proto__": {"x": 1}}}'))).toThrow("__proto__");
  });
  it("validates hints written inside the context", () => {
    expect(() => validateContext("my.custom.v3", { llm_hints: { transform: { t: { type: "template", template: "{{#if}}" } } } })).toThrow(InvalidLlmHintsError);
  });
  it("agent.def.v1 checks its selectors deeply", () => {
    const def = {
      agent_id: "page-assistant",
      model: "openrouter/anthropic/claude-3.5-sonnet",
      system_prompt: "You help.",
      subscriptions: { selectors: [{ schema_name: "browser.page.context.v1", any_tags: ["browser:active-tab"] }, { schema_name: "chat.message.v1", any_tags: ["user:message"] }] },
      capabilities: { can_create_breadcrumbs: true },
    };
    expect(validateContext("agent.def.v1", def).agent_id).toBe("page-assistant");
    const badSel = { ...def, subscriptions: { selectors: [{ context_match: [{ path: "$.a", op: "matches", value: "(a)\\1" }] }] } };
    expect(() => validateContext("agent.def.v1", badSel)).toThrow(/backreferences/);
    expect(() => validateContext("agent.def.v1", { ...def, agent_id: "has space" })).toThrow(SchemaValidationError);
  });
  it("every known schema is registered", () => {
    expect(Object.keys(knownContextSchemas).sort()).toEqual(
      ["agent.def.v1", "agent.response.v1", "browser.action.result.v1", "browser.action.v1", "browser.page.context.v1",
      "browser.task.cancel.v1", "browser.task.v1", "browser.context.interest.v1", "chat.message.v1", "schema.def.v1"].sort(),
    );
  });
});

describe("browser actions", () => {
  it("lists the contract's actions, each with a params schema", () => {
    expect(BROWSER_ACTIONS).toHaveLength(25);
    expect(Object.keys(actionParamsSchemas).sort()).toEqual([...BROWSER_ACTIONS].sort());
  });
  it("accepts well-formed params", () => {
    expect(() => action("click", { ref: "e3" })).not.toThrow();
    expect(() => action("click", { selector: { role: "button", name: "Submit", nth: 0 } })).not.toThrow();
    expect(() => action("fill", { ref: "e3", value: "a@b.c" })).not.toThrow();
    expect(() => action("type", { selector: { text: "Search" }, value: "hi", delay: 20 })).not.toThrow();
    expect(() => action("click", { selector: { xpath: "/html/body/form/button" } })).not.toThrow();
    expect(() => action("capture_candidates", { refs: ["e3", "e9"], crops: 1 })).not.toThrow();
    expect(() => action("press", { key: "Enter" })).not.toThrow();
    expect(() => action("scroll", { direction: "down", amount: 400 })).not.toThrow();
    expect(() => action("wait_for", { until: { url: "/done" }, timeout_ms: 5000 })).not.toThrow();
    expect(() => action("get", { what: "url" })).not.toThrow();
    expect(() => action("get", { what: "attribute", name: "href", ref: "f1e2" })).not.toThrow();
    expect(() => action("is", { state: "checked", ref: "e9" })).not.toThrow();
    expect(() => action("extract", { fields: ["title", "price"], limit: 20 })).not.toThrow();
    expect(() => action("snapshot", {})).not.toThrow();
    expect(() => action("snapshot", undefined)).not.toThrow();
    expect(() => action("tab_switch", { tab_id: 12 }, { risk: "low", tab_id: 12, reply_to: "x" })).not.toThrow();
    expect(() => action("open", { url: "https://example.com" })).not.toThrow();
  });
  it.each([
    ["click", {}, "ref"],
    ["fill", { ref: "e1" }, "value"],
    ["press", {}, "key"],
    ["get", { what: "text" }, "ref"],
    ["get", { what: "attribute", ref: "e1" }, "name"],
    ["is", { state: "hidden", ref: "e1" }, "state"],
    ["wait_for", { until: {} }, "condition"],
    ["tab_close", {}, "tab_id"],
    ["click", { selector: { role: "button", text: "x" } }, "selector"],
    ["fly", {}, "action"],
    ["capture_candidates", { refs: [] }, "refs"],
    ["click", { selector: { xpath: "/a".repeat(501) } }, "selector"],
  ])("refuses %s %j", (a, params, why) => {
    expect(() => action(a, params)).toThrow(SchemaValidationError);
    expect(() => action(a, params)).toThrow(why);
  });
  it("params convert to JSON Schema with descriptions (LLM tools)", () => {
    for (const a of BROWSER_ACTIONS) {
      const js = z.toJSONSchema(actionParamsSchemas[a]) as { type: string; description?: string; properties?: Record<string, { description?: string }> };
      expect(js.type, a).toBe("object");
      expect(js.description, a).toBeTruthy();
    }
    const fill = z.toJSONSchema(actionParamsSchemas.fill) as { properties: Record<string, { description?: string }>; required: string[] };
    expect(fill.properties.ref?.description).toMatch(/snapshot/);
    expect(fill.required).toEqual(["value"]);
  });
  it("results: an error needs a code from the list", () => {
    const obs = { url: "https://x.test", title: "X", url_changed: false };
    expect(() => validateContext("browser.action.result.v1", { request_id: "r", action_id: "a", status: "ok", data: { n: 1 }, observation: obs })).not.toThrow();
    expect(() => validateContext("browser.action.result.v1", { request_id: "r", action_id: "a", status: "error", observation: obs })).toThrow("code");
    for (const code of ACTION_ERROR_CODES) {
      expect(() => validateContext("browser.action.result.v1", { request_id: "r", action_id: "a", status: "error", code, observation: obs })).not.toThrow();
    }
  });
});

describe("request bodies", () => {
  const body = { schema_name: "chat.message.v1", title: "hi", tags: ["user:message"], context: { role: "user", content: "hi", session_id: "s" } };
  it("parses a create body", () => {
    expect(parseCreateBreadcrumbBody({ ...body, key: "k", ttl_seconds: 60 })).toMatchObject({ key: "k", ttl_seconds: 60 });
  });
  it("maps problems to the contract's codes", () => {
    expect(() => parseCreateBreadcrumbBody({ ...body, surprise: 1 })).toThrow(InvalidRequestError);
    expect(() => parseCreateBreadcrumbBody({ ...body, title: "" })).toThrow(InvalidRequestError);
    expect(() => parseCreateBreadcrumbBody({ ...body, ttl_seconds: 0 })).toThrow(InvalidRequestError);
    expect(() => parseCreateBreadcrumbBody({ ...body, tags: Array.from({ length: 101 }, (_, i) => `t${i}`) })).toThrow(InvalidRequestError);
    expect(() => parseCreateBreadcrumbBody({ ...body, llm_hints: { transform: { t: { type: "extract", value: "nope" } } } })).toThrow(InvalidLlmHintsError);
    expect(() => parseCreateBreadcrumbBody({ ...body, context: { role: "user" } })).toThrow(SchemaValidationError);
  });
  it("a patch needs at least one field; null hints remove them", () => {
    expect(() => parsePatchBreadcrumbBody({}, "chat.message.v1")).toThrow(InvalidRequestError);
    expect(parsePatchBreadcrumbBody({ llm_hints: null }, "chat.message.v1")).toEqual({ llm_hints: null });
    expect(() => parsePatchBreadcrumbBody({ context: { role: "user" } }, "chat.message.v1")).toThrow(SchemaValidationError);
    expect(() => parsePatchBreadcrumbBody({ schema_name: "x.v1" }, "chat.message.v1")).toThrow(InvalidRequestError);
  });
  it("the stored envelope", () => {
    const b = {
      id: "7b7f1f0e-3f5a-4c1e-9a55-1d6c2c7f0a11",
      owner: "default",
      ...body,
      version: 1,
      created_at: "2025-01-15T10:30:00.000Z",
      updated_at: "2025-01-15T10:30:00+02:00",
      created_by: "default",
      updated_by: "default",
    };
    expect(breadcrumbSchema.safeParse(b).success).toBe(true);
    expect(breadcrumbSchema.safeParse({ ...b, version: 0 }).success).toBe(false);
    expect(breadcrumbSchema.safeParse({ ...b, created_at: "yesterday" }).success).toBe(false);
  });
});

describe("the user stays in control", () => {
  it("open and tab_new take only http(s) URLs (or a bare host, which means https)", () => {
    for (const url of ["https://example.com", "http://127.0.0.1:8080/x", "example.com/docs"]) {
      expect(() => action("open", { url }), url).not.toThrow();
      expect(() => action("tab_new", { url }), url).not.toThrow();
    }
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "data:text/html,hi", "chrome://settings", "FILE:///C:/x"]) {
      expect(() => action("open", { url }), url).toThrow(/http and https/);
      expect(() => action("tab_new", { url }), url).toThrow(/http and https/);
    }
    expect(actionParamsSchemas.open.safeParse({ url: "file:///etc/passwd" }).success).toBe(false);
  });
  it("browser.task.cancel.v1 needs a session and a reason", () => {
    expect(validateContext("browser.task.cancel.v1", { session_id: "s1", reason: "the user pressed Stop" }).dropped).toEqual([]);
    expect(() => validateContext("browser.task.cancel.v1", { reason: "x" })).toThrow(SchemaValidationError);
  });
  it("browser.context.interest.v1 needs a holder with an id and a label", () => {
    const ok = validateContext("browser.context.interest.v1", { holder: { id: "sdk:1", label: "sdk: a" }, target: { extension_id: "abc" } });
    expect(ok).toMatchObject({ holder: { label: "sdk: a" } });
    expect(() => validateContext("browser.context.interest.v1", { holder: { id: "sdk:1" } })).toThrow(SchemaValidationError);
    expect(() => validateContext("browser.context.interest.v1", {})).toThrow(SchemaValidationError);
  });
  it("cancelled is an action error code", () => {
    expect(ACTION_ERROR_CODES).toContain("cancelled");
  });
});
