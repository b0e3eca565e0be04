import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminUrl } from "@crumbs/testkit";

/**
 * postgres-js 3.4.9 joined a message split across socket reads with the whole read it ended in:
 * a COPY's reads (up to 64 KB) nearly all end inside a row, so every byte of a streamed answer
 * was copied once more (132 MB of Buffer.concat per 100,000 rows of 1.3 KB, 9 MB with the fix),
 * and those copies drive V8's external-memory collections in the API. The fix, in
 * patches/postgres+3.4.9.patch, copies the split message alone; the first test fails on the
 * unpatched driver (`node scripts/apply-patches.mjs --reverse` to see it).
 */
describe("postgres driver reading messages split across socket reads", () => {
  let sql: postgres.Sql;

  beforeAll(() => {
    sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await sql.end({ timeout: 5 });
  });

  // Flowing, as the API reads a COPY (its async iterator can leave the connection paused: supervisor.ts).
  const copy = async (statement: string) => {
    const stream = await sql.unsafe(statement).readable();
    return new Promise<Buffer[]>((resolve, reject) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.once("end", () => resolve(chunks));
      stream.once("error", reject);
    });
  };

  it("copies far less than the rows it reads", async () => {
    // 4,000 rows of ~1.3 KB: ~5 MB, which crosses the socket in reads that end inside a row.
    const statement = `copy (select i || repeat('a', 1300) from generate_series(1, 4000) i) to stdout`;
    const concat = vi.spyOn(Buffer, "concat");
    const bytes = (await copy(statement)).reduce((n, chunk) => n + chunk.length, 0);
    const copied = concat.mock.results.reduce((n, r) => n + (r.value as Buffer).length, 0);
    concat.mockRestore();
    expect(bytes).toBeGreaterThan(5_000_000);
    expect(copied).toBeLessThan(bytes / 4);
  });

  it("hands over every row whole, small ones and ones over many reads, and answers the next query", async () => {
    const statement = `copy (select i || ':' || repeat(chr(97 + i % 26), (i * 7919) % 200000) from generate_series(1, 300) i) to stdout`;
    const out = Buffer.concat(await copy(statement)).toString("latin1").split("\n");
    expect(out.pop()).toBe("");
    expect(out).toHaveLength(300);
    out.forEach((line, k) => {
      const i = k + 1;
      expect(line).toBe(`${i}:${String.fromCharCode(97 + (i % 26)).repeat((i * 7919) % 200000)}`);
    });
    const next = await sql.unsafe<{ x: number }[]>("select x from generate_series(1, 3) x");
    expect(next.map((r) => r.x)).toEqual([1, 2, 3]);
  });
});
