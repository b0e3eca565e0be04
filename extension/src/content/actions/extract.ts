import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { clip } from "../dom/text.ts";
import { findCollection } from "../dom/collection.ts";
import { isSecretField } from "../dom/redaction.ts";
import { targetShape } from "./params.ts";
import { resolveTarget } from "../dom/resolve-target.ts";

const extractParams = z.object({
  ...targetShape,
  fields: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(50))),
  limit: z.optional(z.number().check(z.int(), z.gte(1), z.lte(500))),
});

const DEFAULT_LIMIT = 50;
const FIELD_CHARS = 300;
/** the whole result stays within the snapshot's budget (~4,000 tokens) */
const MAX_RESULT_CHARS = 16_000;

type Record_ = Record<string, string | null>;

// extract: the repeated items under a ref (list items, table rows, cards) as records. Without `fields`, each
// record has the item's text and its first link; a table gives one field per column. With `fields`, each name
// is looked up in the item by itemprop, data-field, name, class, column header, then the special names
// text/url/href/link/image.
registerAction("extract", extractParams, async (params) => {
  const hasTarget = params.ref !== undefined || params.selector !== undefined;
  if (!hasTarget) throw new ActionError("invalid_params", "give `ref` of the list, table or container to extract from");
  const root = resolveTarget(params);
  const { items, headers } = findCollection(root);
  const limit = params.limit ?? DEFAULT_LIMIT;
  const records: Record_[] = [];
  let size = 2;
  let cut = false;
  for (const item of items.slice(0, limit)) {
    const rec = params.fields ? pickFields(item, params.fields, headers) : defaultRecord(item, headers);
    const len = JSON.stringify(rec).length + 1;
    if (size + len > MAX_RESULT_CHARS) {
      cut = true;
      break;
    }
    size += len;
    records.push(rec);
  }
  return {
    items: records,
    count: records.length,
    total: items.length,
    truncated: cut || items.length > records.length,
    ...(headers ? { columns: headers } : {}),
  };
});

function textOf(el: Element): string {
  if (el.localName === "input" || el.localName === "textarea" || el.localName === "select") {
    return isSecretField(el) ? "" : (el as HTMLInputElement).value;
  }
  return clip((el as HTMLElement).innerText ?? el.textContent ?? "", FIELD_CHARS);
}

function firstLink(item: Element): string | null {
  const a = item.localName === "a" ? item : item.querySelector("a[href]");
  return a ? (a as HTMLAnchorElement).href : null;
}

function defaultRecord(item: Element, headers?: string[]): Record_ {
  if (headers && item.localName === "tr") {
    const rec: Record_ = {};
    Array.from((item as HTMLTableRowElement).cells).forEach((cell, i) => {
      rec[headers[i] || `column_${i + 1}`] = textOf(cell);
    });
    const link = firstLink(item);
    if (link) rec.url = link;
    return rec;
  }
  const rec: Record_ = { text: textOf(item) };
  const link = firstLink(item);
  if (link) rec.url = link;
  return rec;
}

function pickFields(item: Element, fields: string[], headers?: string[]): Record_ {
  const rec: Record_ = {};
  for (const field of fields) rec[field] = fieldValue(item, field, headers);
  return rec;
}

function fieldValue(item: Element, field: string, headers?: string[]): string | null {
  const f = field.toLowerCase();
  const esc = CSS.escape(field);
  const el =
    item.querySelector(`[itemprop="${esc}"], [data-field="${esc}"], [name="${esc}"]`) ??
    item.querySelector(`.${esc}`) ??
    Array.from(item.querySelectorAll("[class]")).find((c) => c.getAttribute("class")!.toLowerCase().includes(f));
  if (el) {
    if (/url|href|link/.test(f) && el.localName === "a") return (el as HTMLAnchorElement).href;
    if (el.localName === "img") return (el as HTMLImageElement).currentSrc || (el as HTMLImageElement).src;
    if (/url|href|link/.test(f)) {
      const inner = el.querySelector("a[href]");
      if (inner) return (inner as HTMLAnchorElement).href;
    }
    return textOf(el);
  }
  if (headers && item.localName === "tr") {
    const i = headers.findIndex((h) => h.toLowerCase() === f);
    const cell = i >= 0 ? (item as HTMLTableRowElement).cells[i] : undefined;
    if (cell) return textOf(cell);
  }
  if (f === "text") return textOf(item);
  if (["url", "href", "link"].includes(f)) return firstLink(item);
  if (["image", "img", "src"].includes(f)) {
    const img = item.querySelector("img");
    return img ? img.currentSrc || img.src : null;
  }
  return null;
}
