import { describe, expect, it } from "vitest";
import { copyStepStatement, readCopyStep } from "./event-copy.ts";

const line = (seq: number, rest = "") => `{"seq":${seq},"type":"breadcrumb.created"${rest}}\n`;

describe("copyStepStatement", () => {
  const q = { after: 10, since: undefined, until: undefined, rows: 1_000, bytes: 1_398_101 };

  it("puts the owner, the cursor and the bounds in as literals, asking one row more than the step", () => {
    const text = copyStepStatement("default", q)!;
    expect(text).toContain("owner = 'default' and seq > 10");
    expect(text).toContain("limit 1001");
    expect(text).toContain("upto <= 1398101");
    expect(text).toMatch(/to stdout with \(format csv, quote e'\\x01', delimiter e'\\x02'\)$/);
  });

  it("reads from `since` only without a cursor, and up to `until`", () => {
    const since = new Date("2026-01-01T00:00:00Z");
    const until = new Date("2026-02-01T00:00:00Z");
    expect(copyStepStatement("o", { ...q, after: undefined, since, until })).toContain(
      "owner = 'o' and at >= '2026-01-01T00:00:00.000Z'::timestamptz and at < '2026-02-01T00:00:00.000Z'::timestamptz",
    );
    expect(copyStepStatement("o", { ...q, since })).not.toContain(">= '2026");
  });

  it("refuses what it could not quote safely: the row read serves those", () => {
    expect(copyStepStatement("o'; drop table x; --", q)).toBeUndefined();
    expect(copyStepStatement("o\\", q)).toBeUndefined();
    expect(copyStepStatement("o", { ...q, after: 1.5 })).toBeUndefined();
    expect(copyStepStatement("o", { ...q, rows: 0 })).toBeUndefined();
  });
});

describe("readCopyStep", () => {
  it("counts the lines and takes the next cursor from the last one's seq", () => {
    const out = Buffer.from(line(11) + line(12, ',"title":"a,b"') + line(13));
    expect(readCopyStep(out, 10)).toEqual({ lines: out, events: 3, next_after: 13, has_more: false });
  });

  it("reads the trailing `-` as rows that follow, and leaves it out of the lines", () => {
    const body = line(11) + line(12);
    const step = readCopyStep(Buffer.from(`${body}-\n`), 10)!;
    expect(step.lines.toString()).toBe(body);
    expect(step).toMatchObject({ events: 2, next_after: 12, has_more: true });
  });

  it("an empty step ends the answer where it started", () => {
    expect(readCopyStep(Buffer.alloc(0), 10)).toMatchObject({ events: 0, next_after: 10, has_more: false });
    expect(readCopyStep(Buffer.alloc(0), undefined)).toMatchObject({ events: 0, next_after: null, has_more: false });
  });

  it("hands back to the row read a step it cannot serve: a first row without kept text, a quoted value, no seq head", () => {
    expect(readCopyStep(Buffer.from("-\n"), 10)).toBeUndefined();
    expect(readCopyStep(Buffer.from(`\x01${line(11).trimEnd()}\x01\n`), 10)).toBeUndefined();
    expect(readCopyStep(Buffer.from('{"id":1}\n'), 10)).toBeUndefined();
  });
});
