import { describe, expect, it } from "vitest";
import type { Breadcrumb } from "@crumbs/agent-sdk";
import { splitBySession } from "./session-reads.ts";

const item = (id: string, session: string) => ({ id, tags: ["chat", `session:${session}`] }) as unknown as Breadcrumb;
const ids = (items: Breadcrumb[] | undefined) => items?.map((b) => b.id);

describe("splitBySession", () => {
  it("gives every session its items, newest first, when the page holds every match", () => {
    const page = { items: [item("3", "a"), item("2", "b"), item("1", "a")], next_cursor: null };
    const split = splitBySession(page, ["a", "b", "c"], { perSession: 100, limit: 300 });
    expect(ids(split.get("a"))).toEqual(["3", "1"]);
    expect(ids(split.get("b"))).toEqual(["2"]);
    expect(ids(split.get("c"))).toEqual([]);
  });

  it("keeps at most perSession items of a session, its newest", () => {
    const page = { items: [item("3", "a"), item("2", "a"), item("1", "a")] };
    expect(ids(splitBySession(page, ["a"], { perSession: 2, limit: 10 }).get("a"))).toEqual(["3", "2"]);
  });

  it("of a full page, trusts only the sessions with perSession items in it: the others are read alone", () => {
    const page = { items: [item("4", "a"), item("3", "a"), item("2", "b"), item("1", "a")] };
    const split = splitBySession(page, ["a", "b", "c"], { perSession: 2, limit: 4 });
    expect(ids(split.get("a"))).toEqual(["4", "3"]);
    expect(split.get("b")).toBeUndefined();
    expect(split.get("c")).toBeUndefined();
  });

  it("treats a page with a cursor as full (the API cut it by size)", () => {
    const page = { items: [item("1", "a")], next_cursor: "c1" };
    expect(splitBySession(page, ["a"], { perSession: 100, limit: 100 }).get("a")).toBeUndefined();
  });
});
