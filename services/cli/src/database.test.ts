import { describe, expect, it } from "vitest";
import { databaseTarget, describeDatabase } from "./database.ts";

describe("database target", () => {
  it("prefers DATABASE_URL and falls back to PGlite", () => {
    expect(databaseTarget({ databaseUrl: "postgres://h/db", pgliteDir: "/x" })).toEqual({ databaseUrl: "postgres://h/db" });
    expect(databaseTarget({ pgliteDir: "/x/.crumbs/pg" })).toEqual({ pgliteDir: "/x/.crumbs/pg" });
  });

  it("never prints a password", () => {
    expect(describeDatabase({ databaseUrl: "postgres://u:secret@h:5432/db" })).toBe("Postgres postgres://u:***@h:5432/db");
    expect(describeDatabase({ pgliteDir: "/x/pg" })).toBe("PGlite (embedded) in /x/pg");
  });
});
