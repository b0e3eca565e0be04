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
const BREADCRUMB_KEY = ',"breadcrumb":';
/** Bytes of a line decoded to find its head: a head is a few hundred bytes unless its title is long. */
const HEAD_BYTES = 2_048;

/**
 * The fields of an event line before its breadcrumb, parsed without parsing the breadcrumb: the API
 * writes every event's head first (seq, type, id, owner, schema_name, title, tags, version, at,
 * changed) and the breadcrumb last, so the text up to `,"breadcrumb":` closed with `}` is that
 * head as JSON. A string cannot hold that key's text (its quotes would be escaped), nor can the
 * jsonb text of `changed` (Postgres writes `"key": ` with a space). Undefined when the line is not
 * laid out so; the caller then parses the whole line.
 */
export function eventHead(line: Uint8Array): Record<string, unknown> | undefined {
  let text = decoder.decode(line.length > HEAD_BYTES ? line.subarray(0, HEAD_BYTES) : line);
  let at = text.indexOf(BREADCRUMB_KEY);
  if (at < 0 && line.length > HEAD_BYTES) {
    text = decoder.decode(line);
    at = text.indexOf(BREADCRUMB_KEY);
  }
  if (at < 0) return undefined;
  try {
    const head: unknown = JSON.parse(`${text.slice(0, at)}}`);
    return typeof head === "object" && head !== null ? (head as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
