// Names that templates, expressions and hint keys may never use: the expression language and the
// template checker refuse them, and llm_hints' schema refuses them as output names.

/** Names that lead to prototypes or property machinery; refused in templates, expressions and keys. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set([
  "__proto__",
  "constructor",
  "prototype",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
]);
