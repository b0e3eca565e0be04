import { describe, expect, it } from "vitest";
import { CliError } from "./errors.ts";
import { planPut } from "./put-plan.ts";

describe("planPut", () => {
  it("creates a document without an id", () => {
    const doc = { schema_name: "note.v1", title: "t", context: { a: 1 }, key: "k" };
    expect(planPut(doc)).toEqual({ method: "POST", body: doc });
  });

  it("patches a document with an id, If-Match from its version, only patchable fields", () => {
    const doc = {
      id: "abc",
      version: 4,
      owner: "default",
      schema_name: "note.v1",
      title: "t2",
      tags: ["x"],
      context: { a: 2 },
      created_at: "2025-01-01T00:00:00Z",
    };
    expect(planPut(doc)).toEqual({
      method: "PATCH",
      id: "abc",
      body: { title: "t2", tags: ["x"], context: { a: 2 } },
      ifMatch: 4,
    });
  });

  it("refuses an update without a version and anything that is not an object", () => {
    expect(() => planPut({ id: "abc", title: "t" })).toThrow(/version/);
    for (const bad of [null, [], "x", 3]) expect(() => planPut(bad)).toThrow(CliError);
    expect(() => planPut({ id: "abc", version: 0 })).toThrow(CliError);
  });
});
