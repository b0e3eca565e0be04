import { RE2JS } from "re2js";
import { ALLOWED_REGEX_FLAGS, MAX_REGEX_LENGTH } from "../contract/regex-limits.ts";

// `matches` patterns come from untrusted selectors and run on every event. They run on RE2
// semantics (re2js, pure JavaScript, so the API, the SDK, the runner and a browser all run the
// same engine): matching time is linear in the input, whatever the pattern. RE2 has no
// backreferences and no lookaround (they are what makes backtracking engines exponential), so
// patterns using them are refused when the selector is given, as are patterns that do not parse.

export { ALLOWED_REGEX_FLAGS, MAX_REGEX_LENGTH };

export interface SafeRegex {
  readonly source: string;
  readonly flags: string;
  /** Whether the pattern matches anywhere in `s` (like RegExp.prototype.test). */
  test(s: string): boolean;
}

/** Why a pattern is not RE2 syntax in words a user can act on (RE2's own message otherwise). */
function explain(pattern: string, re2Message: string): string {
  if (/\\[1-9]|\\k</.test(pattern)) return "backreferences (\\1, \\k<name>) are not supported";
  if (/\(\?<?[=!]/.test(pattern)) return "lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported";
  if (/\\u[0-9a-fA-F{]/.test(pattern)) return "\\uXXXX is not RE2 syntax: write \\x{XXXX}";
  return re2Message.replace(/^error parsing regexp: /, "");
}

/** Compiles a pattern for `matches`; throws an Error whose message says what is not accepted. */
export function compileSafeRegex(pattern: string, flags = ""): SafeRegex {
  if (pattern.length > MAX_REGEX_LENGTH) throw new Error(`longer than ${MAX_REGEX_LENGTH} characters`);
  if (!ALLOWED_REGEX_FLAGS.test(flags)) throw new Error("flags may only be i, m, s, u");
  // `u` is accepted for compatibility and changes nothing: RE2 always matches by code point.
  let bits = 0;
  if (flags.includes("i")) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes("m")) bits |= RE2JS.MULTILINE;
  if (flags.includes("s")) bits |= RE2JS.DOTALL;
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, bits);
  } catch (e) {
    throw new Error(`not accepted (RE2 syntax): ${explain(pattern, e instanceof Error ? e.message : String(e))}`);
  }
  return { source: pattern, flags, test: (s) => re.test(s) };
}

/**
 * Work units for one `test` of a pattern on a string of `length` characters: linear in the input,
 * scaled by the pattern's size (the automaton tracks at most that many states per character).
 */
export function regexCost(pattern: string, length: number): number {
  // A call costs ~10 µs before the first character; then a few ns per character on the DFA.
  return 64 + Math.ceil(length / 4) * Math.ceil((pattern.length + 1) / 64);
}
