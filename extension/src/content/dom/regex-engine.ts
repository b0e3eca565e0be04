import { ActionError } from "../../shared/action-error.ts";
import { REGEX_ENGINE_GLOBAL, type RegexEngine } from "../../shared/regex-engine.ts";
import type { NameTester } from "../../perception/name-match.ts";

// Role selectors with `nameMode: "regex"` run on RE2 semantics (linear time, the bus's own engine,
// @crumbs/schemas/safe-regex), never on the page's native RegExp. The engine is about 150 KB, more than
// the rest of the content script, so it is a bundle of its own that the worker injects into a frame
// only when an action there carries a regex name (shared/regex-engine.ts).

export function compileNameRegex(pattern: string): NameTester {
  const engine = (globalThis as Record<string, unknown>)[REGEX_ENGINE_GLOBAL] as RegexEngine | undefined;
  if (!engine) throw new ActionError("not_actionable", "the regex engine is not loaded in this frame; send the action again");
  try {
    return engine.compile(pattern);
  } catch (e) {
    throw new ActionError("invalid_params", `name regex ${JSON.stringify(pattern)} is ${e instanceof Error ? e.message : String(e)}`);
  }
}
