/**
 * nats-server 2.9 allows one filter subject per consumer. Several narrowed
 * subjects become the narrowest single subject that covers all of them; the
 * selector engine then drops the extra events locally.
 */
export function coveringSubject(subjects: readonly string[], root = "crumbs.>"): string {
  const unique = [...new Set(subjects)];
  if (unique.length === 0) return root;
  if (unique.length === 1) return unique[0]!;
  const split = unique.map((s) => s.split("."));
  const lengths = new Set(split.map((t) => t.length));
  const hasTail = split.some((t) => t.includes(">"));
  if (lengths.size === 1 && !hasTail) {
    const n = split[0]!.length;
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const first = split[0]![i]!;
      out.push(split.every((t) => t[i] === first) ? first : "*");
    }
    return out.join(".");
  }
  const minLen = Math.min(...split.map((t) => t.length));
  const prefix: string[] = [];
  // Stop one token early so `>` (one or more tokens) still covers the shortest subject.
  for (let i = 0; i < minLen - 1; i++) {
    const first = split[0]![i]!;
    if (first === ">" || !split.every((t) => t[i] === first)) break;
    prefix.push(split.every((t) => t[i] === first) ? first : "*");
  }
  return prefix.length ? `${prefix.join(".")}.>` : root;
}

/** Does a NATS subject match a subscription pattern with `*` and `>` wildcards? */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const s = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === ">") return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== "*" && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}
