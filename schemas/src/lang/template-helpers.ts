import { lengthOf } from "./length-of.ts";
import { chargeText } from "./template-budget.ts";

// Handlebars passes its options object as the last argument; helpers drop it. Helpers must accept
// undefined for every argument: validation renders each template once with empty data.
// Every string a helper builds is charged to the render's budget (template-budget.ts), also when
// little of it reaches the output ({{truncate context 10}} still serialises the whole context).

type HelperFn = (...args: unknown[]) => unknown;

const args = (a: unknown[]) => a.slice(0, -1);

function toText(v: unknown): string {
  if (v === undefined || v === null) return "";
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  chargeText(s.length);
  return s;
}

/** lengthOf, charged: a plain object's keys are listed to be counted. */
function countOf(v: unknown): unknown {
  const n = lengthOf(v);
  if (typeof n === "number" && v !== null && typeof v === "object" && !Array.isArray(v)) chargeText(n);
  return n;
}

export const TEMPLATE_HELPERS: Record<string, HelperFn> = {
  /** {{json value}} or {{json value 2}} (indent) */
  json: (...a) => {
    const [value, indent] = args(a);
    if (value === undefined) return "";
    const n = typeof indent === "number" ? Math.min(Math.max(indent, 0), 8) : undefined;
    const s = JSON.stringify(value, null, n);
    chargeText(s.length);
    return s;
  },
  /** {{join list ", "}}: items that are objects are written as JSON */
  join: (...a) => {
    const [list, sep] = args(a);
    if (!Array.isArray(list)) return toText(list);
    const s = list.map(toText).join(typeof sep === "string" ? sep : ", ");
    chargeText(s.length);
    return s;
  },
  /** {{truncate text 100}}: at most n characters, an ellipsis marks a cut */
  truncate: (...a) => {
    const [text, max] = args(a);
    const s = toText(text);
    const n = typeof max === "number" && max >= 0 ? Math.floor(max) : 100;
    return s.length <= n ? s : s.slice(0, Math.max(0, n - 1)) + "…";
  },
  /** {{count x}}: items of an array, keys of an object, characters of a string; 0 otherwise */
  count: (...a) => {
    const n = countOf(args(a)[0]);
    return typeof n === "number" ? n : 0;
  },
  /** {{default value "fallback"}}: the fallback when value is undefined, null or "" */
  default: (...a) => {
    const [value, fallback] = args(a);
    return value === undefined || value === null || value === "" ? fallback : value;
  },
  /** Target of the `.length` rewrite; not meant to be called by name. */
  __len: (...a) => countOf(args(a)[0]),
};
