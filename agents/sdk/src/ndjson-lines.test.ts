import { describe, expect, it } from "vitest";
import { eventHead, ndjsonLines, replayedHead } from "./ndjson-lines.ts";

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

describe("replayedHead", () => {
  const line = (title: string, rest = ',"tags":["a", "b"],"version":3,"at":"2026-01-01T00:00:00.000Z","breadcrumb":{"version": 9}}') =>
    enc.encode(`{"seq":42,"type":"breadcrumb.updated","id":"d3eb9a92-33e5-4948-840d-7eb8c3062d14","owner":"o","schema_name":"chat.message.v1","title":${title}${rest}`);

  it("reads the fields a replay uses from the bytes, as JSON.parse of the head gives them", () => {
    const l = line('"été 🎉"');
    expect(replayedHead(l)).toEqual({
      seq: 42, type: "breadcrumb.updated", id: "d3eb9a92-33e5-4948-840d-7eb8c3062d14", owner: "o", schema_name: "chat.message.v1", title: "été 🎉", version: 3,
    });
    const { seq, type, id, owner, schema_name, title, version } = eventHead(l)!;
    expect(replayedHead(l)).toEqual({ seq, type, id, owner, schema_name, title, version });
  });

  it("is undefined when a string has an escape, a field is missing or out of order, or the version is not a number", () => {
    expect(replayedHead(line('"say \\"hi\\""'))).toBeUndefined();
    expect(replayedHead(line("null"))).toBeUndefined();
    expect(replayedHead(line('"t"', ',"tags":[],"version":"3","breadcrumb":{}}'))).toBeUndefined();
    expect(replayedHead(line('"t"', ',"breadcrumb":{"a": 1, "version": 2}}'))).toBeUndefined();
    expect(replayedHead(enc.encode('{"seq":1,"id":"x","type":"breadcrumb.created","owner":"o","schema_name":"s","title":"t","version":1}'))).toBeUndefined();
    expect(replayedHead(enc.encode('{"next_after":1,"has_more":true}'))).toBeUndefined();
  });
});
