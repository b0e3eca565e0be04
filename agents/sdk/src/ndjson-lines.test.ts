import { describe, expect, it } from "vitest";
import { eventHead, ndjsonLines } from "./ndjson-lines.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A body of these chunks, as plain Uint8Arrays (what fetch gives), not Buffers. */
function body(chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const s of chunks) c.enqueue(new Uint8Array(enc.encode(s)));
      c.close();
    },
  });
}

async function linesOf(chunks: string[]): Promise<string[][]> {
  const out: string[][] = [];
  for await (const batch of ndjsonLines(body(chunks))) out.push(batch.map((l) => dec.decode(l)));
  return out;
}

describe("ndjsonLines", () => {
  it("gives the lines each chunk completes, a line split across chunks whole, and a last line without newline", async () => {
    expect(await linesOf(['{"a":1}\n{"b"', ':2}\n{"c":3}\n', "", '{"d":', "4}"])).toEqual([['{"a":1}'], ['{"b":2}', '{"c":3}'], ['{"d":4}']]);
  });

  it("joins a line spread over three chunks, multi-byte characters cut between them included", async () => {
    const line = '{"t":"ça été"}';
    const bytes = enc.encode(`${line}\n`);
    const cut = [bytes.subarray(0, 8), bytes.subarray(8, 9), bytes.subarray(9)];
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const b of cut) c.enqueue(b);
        c.close();
      },
    });
    const got: string[] = [];
    for await (const batch of ndjsonLines(stream)) got.push(...batch.map((l) => dec.decode(l)));
    expect(got).toEqual([line]);
  });
});

describe("eventHead", () => {
  const head = '{"seq":7,"type":"breadcrumb.created","id":"x","owner":"o","schema_name":"s","title":"été, \\"breadcrumb\\": no","version":1';

  it("parses the fields before the breadcrumb, never the breadcrumb", () => {
    expect(eventHead(enc.encode(`${head},"breadcrumb":{not json at all}`))).toEqual({
      seq: 7, type: "breadcrumb.created", id: "x", owner: "o", schema_name: "s", title: 'été, "breadcrumb": no', version: 1,
    });
  });

  it("finds the key past the first 2 KB (a long title)", () => {
    const long = `{"seq":1,"title":"${"é".repeat(3_000)}"`;
    expect(eventHead(enc.encode(`${long},"breadcrumb":{}}`))).toEqual({ seq: 1, title: "é".repeat(3_000) });
  });

  it("is undefined for a line without the key or whose head is not JSON", () => {
    expect(eventHead(enc.encode('{"next_after":1,"has_more":true}'))).toBeUndefined();
    expect(eventHead(enc.encode('{"seq":1,"title":,"breadcrumb":{}}'))).toBeUndefined();
  });
});
