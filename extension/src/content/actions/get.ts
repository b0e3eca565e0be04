import * as z from "@crumbs/schemas/zod-mini";
import { registerAction } from "./registry.ts";
import { bounded } from "../dom/text.ts";
import { isSecretField, reportedValue, safeOuterHtml } from "../dom/redaction.ts";
import { needsTarget, targetMessage, targetShape } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

const getParams = z
  .object({
    ...targetShape,
    what: z.enum(["text", "value", "attribute", "title", "url", "html"]),
    name: z.optional(z.string().check(z.minLength(1))),
    max_chars: z.optional(z.number().check(z.int(), z.gte(1), z.lte(50_000))),
  })
  .check(
    z.refine((v) => v.what !== "attribute" || v.name !== undefined, { message: "`what: attribute` needs `name`" }),
    z.refine((v) => ["title", "url"].includes(v.what) || needsTarget(v), targetMessage),
  );

// get: one fact about the page or an element. Text and HTML are capped (max_chars, 4,000 by default) and say
// when they were cut; a password or one-time code never leaves the page.
registerAction("get", getParams, async (params) => {
  if (params.what === "title") return { title: document.title };
  if (params.what === "url") return { url: location.href };
  const el = resolveTarget(params);
  switch (params.what) {
    case "text":
      return bounded((el as HTMLElement).innerText ?? el.textContent ?? "", params.max_chars);
    case "value":
      return reportedValue(el);
    case "html":
      return bounded(safeOuterHtml(el), params.max_chars);
    case "attribute": {
      const name = params.name!.toLowerCase();
      if (isSecretField(el) && name === "value") return { name, value: null, redacted: true };
      const value = el.getAttribute(name);
      return { name, value: value === null ? null : bounded(value, params.max_chars).text };
    }
  }
});
