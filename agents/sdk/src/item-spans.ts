/**
 * Where each element of a JSON page's top-level `items` array lies in the page's UTF-8 bytes, as
 * [start, end) pairs, so a replay publishes each event's bytes as the API sent them instead of
 * serialising the parsed event again (JSON.stringify and encoding were half of `crumbs replay
 * --publish`'s time per event). The page must be valid JSON (the caller parsed it); undefined
 * when it has no `items` array at the top level.
 *
 * Multi-byte UTF-8 sequences never contain the ASCII bytes scanned for, and a string's content is
 * skipped with indexOf to its closing quote (one not escaped by an odd run of backslashes).
 */
export function itemSpans(bytes: Uint8Array): [number, number][] | undefined {
  const n = bytes.length;
  let depth = 0;
  let lastKey = "";
  let inItems = false;
  let start = -1;
  const spans: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      const end = closingQuote(bytes, i);
      if (depth === 1) lastKey = end - i - 1 === 5 ? textOf(bytes, i + 1, end) : "";
      else if (inItems && depth === 2 && start < 0) start = i;
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (inItems && depth === 2 && start < 0) start = i;
      depth++;
      if (depth === 2 && c === OPEN_ARRAY && lastKey === "items") inItems = true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (inItems && depth === 2) {
        if (start >= 0) spans.push([start, trimEnd(bytes, start, i)]);
        return spans;
      }
      depth--;
    } else if (inItems && depth === 2) {
      if (c === COMMA) {
        spans.push([start, trimEnd(bytes, start, i)]);
        start = -1;
      } else if (start < 0 && !isSpace(c)) start = i;
    }
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function closingQuote(bytes: Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = bytes.indexOf(QUOTE, at + 1);
    if (at < 0) return bytes.length;
    let slashes = 0;
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
}

function trimEnd(bytes: Uint8Array, start: number, end: number): number {
  while (end > start && isSpace(bytes[end - 1]!)) end--;
  return end;
}

function textOf(bytes: Uint8Array, start: number, end: number): string {
  let s = "";
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}
