import { describe, expect, it } from "vitest";
import { pageContext } from "../lib/page-context.ts";
import { patchStatement, patchStatementForPgbench } from "./write-path-sql.ts";

describe("the PATCH statement captured from the API", () => {
  const a = { id: "00000000-0000-4000-8000-0000000000aa", version: 3, at: "2026-11-27T10:00:00.000Z", owner: "alice" };
  const b = { id: "00000000-0000-4000-8000-0000000000bb", version: 41, at: "2026-11-27T11:30:00.000Z", owner: "bob" };

  it("binds a row's id, version, time, owner and subject, and leaves every other parameter as the API bound it", () => {
    const statement = patchStatement(pageContext(7, 2));
    const pa = statement.forRow(a);
    const pb = statement.forRow(b);
    expect(pa).toHaveLength(pb.length);
    const differing = pa.flatMap((v, i) => (v === pb[i] ? [] : [[v, pb[i]]]));
    expect(differing).toEqual(
      expect.arrayContaining([
        [a.id, b.id],
        [a.version, b.version],
        [a.at, b.at],
        ["alice", "bob"],
        ["crumbs.alice.updated.", "crumbs.bob.updated."],
      ]),
    );
    // Nothing else moves: the context and the rest are the API's own values.
    expect(new Set(differing.map(([v]) => v))).toEqual(new Set([a.id, a.version, a.at, "alice", "crumbs.alice.updated."]));
    expect(pa).toContain(JSON.stringify(pageContext(7, 2)));
  });

  it("is the same text pgbench runs, but for its variables", () => {
    const { sql } = patchStatement(pageContext(7, 2));
    const forPgbench = patchStatementForPgbench(pageContext(7, 2)).sql;
    const normalise = (text: string) => text.replaceAll(`' || chr(58) || '`, ":").replace(/\$\d+|:\w+/g, "?").replace(/;\s*$/, "").trim();
    expect(normalise(forPgbench)).toBe(normalise(sql));
  });
});
