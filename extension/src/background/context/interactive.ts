// The page context's `dom.interactiveElements`, keyed by the snapshot's refs instead of buildDomTree's
// highlight indexes, so what a model reads there and what it acts on are the same ids.

export interface InteractiveElement {
  role: string;
  name: string;
  /** A password, one-time-code or payment field: agents may not type into it (the runner refuses before writing the action). */
  secret?: true;
}

const LINE = /^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?.*?\[ref=([A-Za-z0-9_:-]+)\]/;

/** `[secret]` among the states after the ref (never inside the quoted name). */
const SECRET = /\[ref=[^\]]+\](?: \[[^\]]*\])* \[secret\]/;

export function interactiveElements(snapshotText: string, max = 300): Record<string, InteractiveElement> {
  const out: Record<string, InteractiveElement> = {};
  let n = 0;
  for (const line of snapshotText.split("\n")) {
    const m = LINE.exec(line);
    if (!m) continue;
    out[m[3]!] = { role: m[1]!, name: (m[2] ?? "").replace(/\\(.)/g, "$1"), ...(SECRET.test(line) ? { secret: true as const } : {}) };
    if (++n >= max) break;
  }
  return out;
}
