import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUrl } from "@crumbs/testkit";

/**
 * postgres-js 3.4.9 counts the rows of the running statement on the connection and resets the
 * count only when a statement completes. A statement cancelled part way through its rows (here by
 * statement_timeout, as a read of a large history was) left the count where it stopped, so the
 * next statement on that connection answered an array with that many empty leading slots: another
 * owner's GET of his own breadcrumb read `r[0] === undefined` and answered 404, his key 401.
 * The fix is carried in patches/postgres+3.4.9.patch (porsager/postgres#1119, #1181); this test
 * fails on the unpatched driver (`node scripts/apply-patches.mjs --reverse` to see it).
 */
describe("postgres driver after a statement cancelled mid-result", () => {
  let sql: postgres.Sql;

  beforeAll(() => {
    // One connection, so the second statement surely runs where the first was cancelled.
    sql = postgres(adminUrl, { max: 1, onnotice: () => {}, connection: { statement_timeout: 300 } });
  });
  afterAll(async () => {
    await sql.end({ timeout: 5 });
  });

  it("answers the next statement on that connection with exactly its own rows", async () => {
    // 47 rows go out, then row 48 sleeps past statement_timeout: Postgres sends the rows it has,
    // then the cancellation.
    const cancelled = await sql
      .unsafe("select i from generate_series(1, 60) i where i < 48 or pg_sleep(5) is not null")
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect((cancelled as { code?: string } | undefined)?.code).toBe("57014");

    const next = await sql.unsafe<{ x: number }[]>("select x from generate_series(1, 5) x");
    expect(next.length).toBe(5);
    expect(next.map((r) => r.x)).toEqual([1, 2, 3, 4, 5]);
  });

  it("does the same for a statement that fails on a row (division by zero after 3 rows)", async () => {
    const failed = await sql.unsafe("select 1 / (4 - i) as v from generate_series(1, 10) i").then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((failed as { code?: string } | undefined)?.code).toBe("22012");
    const next = await sql.unsafe<{ x: number }[]>("select 7 as x");
    expect(next).toHaveLength(1);
    expect(next[0]?.x).toBe(7);
  });
});
