import { compileSafeRegex } from "@crumbs/schemas/safe-regex";
import { REGEX_ENGINE_GLOBAL, type RegexEngine } from "../shared/regex-engine.ts";

// The RE2 engine bundle (re2.js): injected by the worker into a frame, beside its content script and
// in the same world, before an action whose role selector has a regex name (shared/regex-engine.ts).
const engine: RegexEngine = { compile: (pattern) => compileSafeRegex(pattern) };
(globalThis as Record<string, unknown>)[REGEX_ENGINE_GLOBAL] ??= engine;
