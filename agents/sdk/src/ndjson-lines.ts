/**
 * An NDJSON body as its lines, in batches (the lines each chunk completes): each line is a view of
 * the bytes as they arrived, never decoded, so a replay can forward an event's JSON as it came.
 * Only a line split across two chunks is copied. A last line without a newline is given too.
 */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array[]> {
  const reader = body.getReader();
  try {
    yield* linesOf(reader);
  } finally {
    // A caller that stops early ends the request: the API then stops reading for it.
    reader.cancel().catch(() => {});
  }
}

async function* linesOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array[]> {
  let rest: Uint8Array | undefined;
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    const lines: Uint8Array[] = [];
    let start = 0;
    if (rest) {
      const nl = chunk.indexOf(NL);
      if (nl < 0) {
        rest = joined(rest, chunk);
        continue;
      }
      lines.push(joined(rest, chunk.subarray(0, nl)));
      rest = undefined;
      start = nl + 1;
    }
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl < 0) break;
      lines.push(chunk.subarray(start, nl));
      start = nl + 1;
    }
    if (start < chunk.length) rest = chunk.slice(start);
    if (lines.length > 0) yield lines;
  }
  if (rest && rest.length > 0) yield [rest];
}

const NL = 0x0a;

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const decoder = new TextDecoder();
/** The bytes of `,"breadcrumb":`, after which an event's head fields are all said. */
const BREADCRUMB_KEY = new TextEncoder().encode(',"breadcrumb":');

/**
 * The fields of an event line before its breadcrumb, parsed without parsing the breadcrumb: the API
 * writes every event's head first (seq, type, id, owner, schema_name, title, tags, version, at,
 * changed) and the breadcrumb last, so the bytes up to `,"breadcrumb":` closed with `}` are that
 * head as JSON. A string cannot hold that key's bytes (its quotes would be escaped), nor can the
 * jsonb text of `changed` (Postgres writes `"key": ` with a space). Undefined when the line is not
 * laid out so; the caller then parses the whole line.
 */
export function eventHead(line: Uint8Array): Record<string, unknown> | undefined {
  const at = indexOfBytes(line, BREADCRUMB_KEY);
  if (at < 0) return undefined;
  try {
    const head: unknown = JSON.parse(`${decoder.decode(line.subarray(0, at))}}`);
    return typeof head === "object" && head !== null ? (head as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function indexOfBytes(hay: Uint8Array, needle: Uint8Array): number {
  const first = needle[0]!;
  for (let i = hay.indexOf(first); i >= 0 && i <= hay.length - needle.length; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}
