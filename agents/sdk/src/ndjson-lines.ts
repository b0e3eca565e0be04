/**
 * An NDJSON body as its lines, in batches (the lines each chunk completes): each line is a view of
 * the bytes as they arrived, never decoded, so a replay can forward an event's JSON as it came.
 * Only a line split across two chunks is copied. A last line without a newline is given too. The
 * body is fetch's stream or Node's (node-get.ts); a caller that stops early ends the request, and
 * the API then stops reading for it.
 */
export async function* ndjsonLines(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array[]> {
  if (!(body instanceof ReadableStream)) return yield* linesOf(body);
  const reader = body.getReader();
  try {
    yield* linesOf(chunksOf(reader));
  } finally {
    reader.cancel().catch(() => {});
  }
}

async function* chunksOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

async function* linesOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array[]> {
  let rest: Uint8Array | undefined;
  for await (const value of chunks) {
    // A Buffer view of the chunk (no copy): its indexOf is memchr, a typed array's a byte loop
    // (35 ms against 2-6 ms for the newlines of 100,000 events of 1.3 KB).
    const chunk = asBuffer(value);
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

const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

const NL = 0x0a;

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const BREADCRUMB_KEY = Buffer.from(',"breadcrumb":');

/**
 * The fields of an event line before its breadcrumb, parsed without parsing the breadcrumb: the API
 * writes every event's head first (seq, type, id, owner, schema_name, title, tags, version, at,
 * changed) and the breadcrumb last, so the text up to `,"breadcrumb":` closed with `}` is that
 * head as JSON. A string cannot hold that key's text (its quotes would be escaped), nor can the
 * jsonb text of `changed` (Postgres writes `"key": ` with a space). The key is found in the bytes
 * (ASCII bytes never occur inside a UTF-8 sequence) and only the head is decoded: decoding the
 * first 2 KB of each line to find it was 200 MB of strings per 100,000 events. Undefined when the
 * line is not laid out so; the caller then parses the whole line.
 */
export function eventHead(line: Uint8Array): Record<string, unknown> | undefined {
  const at = asBuffer(line).indexOf(BREADCRUMB_KEY);
  if (at < 0) return undefined;
  try {
    const head: unknown = JSON.parse(`${asBuffer(line).toString("utf8", 0, at)}}`);
    return typeof head === "object" && head !== null ? (head as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const TAGS_KEY = Buffer.from(',"tags":');
const VERSION_KEY = Buffer.from(',"version":');
/** What precedes each string field of the head, in the builder's order (seq's digits come first). */
const FIELD_KEYS = [',"type":"', '","id":"', '","owner":"', '","schema_name":"', '","title":"'];
const SEQ_TEXT = '{"seq":';

/** The fields a replay uses of an event line, read from its bytes; see replayedHead. */
export interface ReplayedHead {
  seq: number;
  type: string;
  id: string;
  owner: string;
  schema_name: string;
  title: string;
  version: number;
}

/**
 * The fields a replay uses (seq, type, id, owner, schema_name, title, version) of an event line laid
 * out as the API's one builder of the event's text writes it (`{"seq":N,"type":"...","id":"...",
 * "owner":"...","schema_name":"...","title":"...","tags":...,"version":N,`), without a JSON parse:
 * the text before `,"tags":` is decoded and cut at its keys, the version's digits read from the
 * bytes: 163-171 against eventHead's 243-298 ms per 100,000 of the replay bench's lines
 * (micro-benchmark, load 10), the CLI's costliest step of its own per event. Sound only without a
 * backslash in that text (then every quote in it is a string's end or start, so a key cannot match
 * inside a value); with one, a field missing or out of order: undefined, and the caller reads the
 * line the general way (eventHead). `,"version":` cannot occur before its key: inside a string its
 * quote would be escaped, and jsonb's text (the tags) writes `, "` with a space.
 */
export function replayedHead(line: Uint8Array): ReplayedHead | undefined {
  const buf = asBuffer(line);
  const tags = buf.indexOf(TAGS_KEY);
  if (tags < 0) return undefined;
  const text = buf.toString("utf8", 0, tags);
  if (!text.startsWith(SEQ_TEXT) || text.includes("\\") || !text.endsWith('"')) return undefined;
  const values: string[] = [];
  let at = SEQ_TEXT.length;
  for (const key of FIELD_KEYS) {
    const end = text.indexOf(key, at);
    if (end < 0) return undefined;
    values.push(text.slice(at, end));
    at = end + key.length;
  }
  values.push(text.slice(at, text.length - 1));
  const [seqText, type, id, owner, schema_name, title] = values as [string, string, string, string, string, string];
  if (!/^\d{1,15}$/.test(seqText)) return undefined;
  const v = buf.indexOf(VERSION_KEY, tags);
  if (v < 0) return undefined;
  const from = v + VERSION_KEY.length;
  let end = from;
  let version = 0;
  for (; end < buf.length && end - from < 15 && buf[end]! >= 0x30 && buf[end]! <= 0x39; end++) version = version * 10 + buf[end]! - 0x30;
  if (end === from || (buf[end] !== 0x2c && buf[end] !== 0x7d)) return undefined;
  return { seq: Number(seqText), type, id, owner, schema_name, title, version };
}
