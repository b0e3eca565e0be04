// The RE2 engine bundle (re2.js, ../re2/index.ts) and the content script meet on one global of the
// content scripts' world: the worker injects re2.js into a frame before an action whose role selector
// has a regex name, and the content script compiles with what it left there (content/dom/regex-engine.ts).

export const REGEX_ENGINE_GLOBAL = "__crumbsRe2";

export interface RegexEngine {
  /** Compiles an RE2 pattern (linear-time matching); throws an Error saying what is not accepted. */
  compile(pattern: string): { test(s: string): boolean };
}
