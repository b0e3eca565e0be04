// `matches` patterns come from untrusted selectors and run on every event, so a pattern that can
// backtrack exponentially must be refused up front. Full detection is undecidable in practice; this
// cheap scan refuses the classic shapes:
//   - a quantified group that itself contains an unbounded quantifier: (a+)+, (a*)*, (\w+\s?)*
//   - backreferences (\1, \k<name>), which turn matching NP-hard
// Alternations with overlapping branches, e.g. (a|a)*, are not detected; the length bound keeps
// what remains small. Patterns compile without the `v` flag and are limited to 512 characters.

export const MAX_REGEX_LENGTH = 512;
export const ALLOWED_REGEX_FLAGS = /^[imsu]*$/;

interface Group {
  hasUnbounded: boolean;
}

/** A reason the pattern is refused, or undefined when it looks safe. */
export function regexSafetyProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_REGEX_LENGTH) return `longer than ${MAX_REGEX_LENGTH} characters`;
  const stack: Group[] = [{ hasUnbounded: false }];
  // What the next quantifier applies to: a closed group (with its content flag) or a single atom.
  let last: { group: boolean; hasUnbounded: boolean } | undefined;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[1-9]/.test(next) || next === "k") return "backreferences are not allowed";
      i += 2;
      last = { group: false, hasUnbounded: false };
      continue;
    }
    if (c === "[") {
      i++;
      if (pattern[i] === "^") i++;
      if (pattern[i] === "]") i++;
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      i++;
      last = { group: false, hasUnbounded: false };
      continue;
    }
    if (c === "(") {
      stack.push({ hasUnbounded: false });
      i++;
      if (pattern[i] === "?") {
        // (?: (?= (?! (?<= (?<! (?<name>
        i++;
        if (pattern[i] === "<" && pattern[i + 1] !== "=" && pattern[i + 1] !== "!") {
          while (i < pattern.length && pattern[i] !== ">") i++;
        }
        i++;
        if (pattern[i - 1] === "<") i++;
      }
      last = undefined;
      continue;
    }
    if (c === ")") {
      const g = stack.length > 1 ? stack.pop()! : { hasUnbounded: false };
      if (g.hasUnbounded) stack[stack.length - 1]!.hasUnbounded = true;
      last = { group: true, hasUnbounded: g.hasUnbounded };
      i++;
      continue;
    }
    const quant = quantifierAt(pattern, i);
    if (quant) {
      if (quant.unbounded) {
        if (last?.group && last.hasUnbounded) return "nested quantifiers (like (a+)+) can take exponential time";
        stack[stack.length - 1]!.hasUnbounded = true;
      }
      i += quant.length;
      if (pattern[i] === "?") i++; // lazy modifier
      last = undefined;
      continue;
    }
    last = { group: false, hasUnbounded: false };
    i++;
  }
  return undefined;
}

function quantifierAt(p: string, i: number): { unbounded: boolean; length: number } | undefined {
  const c = p[i];
  if (c === "*" || c === "+") return { unbounded: true, length: 1 };
  if (c === "?") return { unbounded: false, length: 1 };
  if (c === "{") {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
    if (!m) return undefined;
    const unbounded = m[2] !== undefined && (m[3] === "" || Number(m[3]) > 1);
    return { unbounded, length: m[0].length };
  }
  return undefined;
}
