import { describe, expect, it } from "vitest";
import type { Breadcrumb } from "@crumbs/agent-sdk";
import { splitPage, type ReadKind } from "./session-reads.ts";

const item = (id: string, session: string, schema = "chat.message.v1") => ({ id, schema_name: schema, tags: ["chat", `session:${session}`] }) as unknown as Breadcrumb;
const ids = (items: Breadcrumb[] | undefined) => items?.map((b) => b.id);
const chats = (perSession: number): ReadKind => ({ schemaNames: ["chat.message.v1"], perSession });
const cancels: ReadKind = { schemaNames: ["browser.task.cancel.v1"], perSession: 50 };

describe("splitPage", () => {
  it("gives every read its session's items of its schemas, newest first, when the page holds every match", () => {
    const page = { items: [item("4", "a", "browser.task.cancel.v1"), item("3", "a"), item("2", "b"), item("1", "a")], next_cursor: null };
    const split = splitPage(page, [{ session: "a", kind: chats(100) }, { session: "b", kind: chats(100) }, { session: "c", kind: chats(100) }, { session: "a", kind: cancels }], 350);
    expect(split.map(ids)).toEqual([["3", "1"], ["2"], [], ["4"]]);
  });

  it("keeps at most perSession items of a session, its newest", () => {
    const page = { items: [item("3", "a"), item("2", "a"), item("1", "a")] };
    expect(ids(splitPage(page, [{ session: "a", kind: chats(2) }], 10)[0])).toEqual(["3", "2"]);
  });

  it("of a full page, trusts only the reads with perSession items in it: the others are read alone", () => {
    const page = { items: [item("4", "a"), item("3", "a"), item("2", "b"), item("1", "a")] };
    const split = splitPage(page, [{ session: "a", kind: chats(2) }, { session: "b", kind: chats(2) }, { session: "a", kind: cancels }], 4);
    expect(split.map(ids)).toEqual([["4", "3"], undefined, undefined]);
  });

  it("treats a page with a cursor as full (the API cut it by size)", () => {
    const page = { items: [item("1", "a")], next_cursor: "c1" };
    expect(splitPage(page, [{ session: "a", kind: chats(100) }], 100)[0]).toBeUndefined();
  });
});
