import { lengthOf } from "./length-of.ts";

// Handlebars passes its options object as the last argument; helpers drop it. Helpers must accept
// undefined for every argument: validation renders each template once with empty data.

type HelperFn = (...args: unknown[]) => unknown;

const args = (a: unknown[]) => a.slice(0, -1);

function toText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

export const TEMPLATE_HELPERS: Record<string, HelperFn> = {
  /** {{json value}} or {{json value 2}} (indent) */
  json: (...a) => {
    const [value, indent] = args(a);
    if (value === undefined) return "";
    const n = typeof indent === "number" ? Math.min(Math.max(indent, 0), 8) : undefined;
    return JSON.stringify(value, null, n);
  },
  /** {{join list ", "}}: items that are objects are written as JSON */
  join: (...a) => {
    const [list, sep] = args(a);
    if (!Array.isArray(list)) return toText(list);
    return list.map(toText).join(typeof sep === "string" ? sep : ", ");
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
    const n = lengthOf(args(a)[0]);
    return typeof n === "number" ? n : 0;
  },
  /** {{default value "fallback"}}: the fallback when value is undefined, null or "" */
  default: (...a) => {
    const [value, fallback] = args(a);
    return value === undefined || value === null || value === "" ? fallback : value;
  },
  /** Target of the `.length` rewrite; not meant to be called by name. */
  __len: (...a) => lengthOf(args(a)[0]),
};
