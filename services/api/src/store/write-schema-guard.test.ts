import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { knownContextSchemas, REFERENCE_PAGE_CONTEXT } from "@crumbs/schemas";
import { breadcrumbContentCheck, checkBreadcrumbContent } from "../http/validate-write.ts";
import { arrayLiteral } from "./sql-helpers.ts";
import { refusedGuard } from "./write-schema-guard.ts";

const dialect = new PgDialect();
const render = (context: unknown) => {
  const guard = refusedGuard(breadcrumbContentCheck.refusing(context));
  return guard ? dialect.sqlToQuery(guard) : undefined;
};

/** The definition the guard must agree with: every known schema tried with the full check. */
function acceptedByFullCheck(context: unknown): string[] {
  return Object.keys(knownContextSchemas).filter((schema_name) => {
    try {
      checkBreadcrumbContent({ schema_name, context: context as Record<string, unknown> });
      return true;
    } catch {
      return false;
    }
  });
}

const contexts: [string, unknown][] = [
  ["a chat message", { role: "user", content: "hi", session_id: "s1" }],
  ["an empty object", {}],
  ["free-form data", { anything: [1, 2, 3] }],
  ["hints that compile", { a: 1, llm_hints: { include: ["a"] } }],
  ["hints that do not compile", { a: 1, llm_hints: { transform: { x: { type: "template", template: "{{#each" } } } }],
  ["a __proto__ key", JSON.parse('{"a": {"__proto__": 1}}')],
  ["not an object", [1, 2]],
  ["the reference page context", REFERENCE_PAGE_CONTEXT],
  ["the reference page context without its hints", { ...REFERENCE_PAGE_CONTEXT, llm_hints: undefined }],
  ["a chat message without its session", { role: "user", content: "hi" }],
  ["an action without params", { action: "click" }],
  ["the reference page context with hints that do not compile", { ...REFERENCE_PAGE_CONTEXT, llm_hints: { transform: { x: { type: "template", template: "{{#each" } } } }],
  ["a page context with an extra key", { ...REFERENCE_PAGE_CONTEXT, extra: { deep: [1, { a: null }] } }],
];

describe("refusedGuard", () => {
  for (const [name, context] of contexts) {
    it(`admits exactly the schemas the full check accepts: ${name}`, () => {
      const known = Object.keys(knownContextSchemas);
      const accepted = acceptedByFullCheck(context);
      const q = render(context);
      let unknownOk = true;
      try {
        checkBreadcrumbContent({ schema_name: "x.unknown.v1", context: context as Record<string, unknown> });
      } catch {
        unknownOk = false;
      }
      if (!unknownOk) {
        expect(accepted).toEqual([]);
        expect(q?.sql).toBe("false");
      } else if (accepted.length === known.length) {
        expect(q).toBeUndefined();
      } else {
        expect(q?.sql).toMatch(/^schema_name <> ALL\(/);
        const refused = known.filter((k) => !accepted.includes(k));
        // The refused names are one text[] parameter (sql-helpers.ts): the array literal of them.
        expect(q?.params[0]).toBe(arrayLiteral(refused));
      }
    });
  }
});
