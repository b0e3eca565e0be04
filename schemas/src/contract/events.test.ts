import { describe, expect, it } from "vitest";
import { breadcrumbEventSchema, breadcrumbReferenceEventSchema, isReferenceEvent, referenceEventOf, eventTypeShort, msgIdFor, parseSubject, STREAM_NAME, STREAM_SUBJECTS, subjectFor } from "./events.ts";
import { InvalidRequestError } from "./errors.ts";
import { subjectCovers, subjectsForSelector, subjectsForSelectors } from "../selector/selector-subjects.ts";
import { InvalidSelectorError } from "./errors.ts";

describe("NATS naming", () => {
  it("stream and subjects", () => {
    expect(STREAM_NAME).toBe("CRUMBS");
    expect(STREAM_SUBJECTS).toEqual(["crumbs.>"]);
    expect(subjectFor("default", "breadcrumb.updated", "browser.page.context.v1")).toBe("crumbs.default.updated.browser.page.context.v1");
    expect(subjectFor("team-1", "created", "chat.message.v1")).toBe("crumbs.team-1.created.chat.message.v1");
  });
  it("refuses tokens that would break the subject", () => {
    expect(() => subjectFor("a.b", "created", "x.v1")).toThrow(InvalidRequestError);
    expect(() => subjectFor("*", "created", "x.v1")).toThrow(InvalidRequestError);
    expect(() => subjectFor("a", "created", "x.>.v1")).toThrow(InvalidRequestError);
  });
  it("event types and msg ids", () => {
    expect(eventTypeShort("breadcrumb.deleted")).toBe("deleted");
    expect(eventTypeShort("created")).toBe("created");
    expect(msgIdFor("7b7f1f0e-3f5a-4c1e-9a55-1d6c2c7f0a11", 3, "breadcrumb.updated")).toBe("7b7f1f0e-3f5a-4c1e-9a55-1d6c2c7f0a11:3:updated");
  });
  it("parses a subject back", () => {
    expect(parseSubject("crumbs.default.updated.browser.page.context.v1")).toEqual({
      owner: "default",
      type: "updated",
      schema_name: "browser.page.context.v1",
    });
    expect(parseSubject("other.default.updated.x.v1")).toBeUndefined();
  });
  it("validates an event payload", () => {
    const breadcrumb = {
      id: "7b7f1f0e-3f5a-4c1e-9a55-1d6c2c7f0a11",
      owner: "default",
      schema_name: "chat.message.v1",
      title: "hi",
      tags: ["user:message"],
      context: { role: "user", content: "hi", session_id: "s1" },
      version: 1,
      created_at: "2025-01-15T10:30:00.000Z",
      updated_at: "2025-01-15T10:30:00.000Z",
      created_by: "default",
      updated_by: "default",
    };
    const ev = { seq: 1, type: "breadcrumb.created", id: breadcrumb.id, owner: "default", schema_name: "chat.message.v1", title: "hi", tags: ["user:message"], version: 1, at: breadcrumb.created_at, breadcrumb };
    expect(breadcrumbEventSchema.parse(ev)).toEqual(ev);
    expect(breadcrumbEventSchema.safeParse({ ...ev, type: "breadcrumb.moved" }).success).toBe(false);
    // The reference event keeps every field but the breadcrumb, and is told apart from a full one.
    const ref = referenceEventOf(ev);
    expect(ref).toEqual({ ...ev, breadcrumb: undefined, truncated: true });
    expect("breadcrumb" in ref).toBe(false);
    expect(breadcrumbReferenceEventSchema.parse(ref)).toEqual(ref);
    expect(isReferenceEvent(ref)).toBe(true);
    expect(isReferenceEvent(ev)).toBe(false);
    expect(isReferenceEvent({ ...ev, truncated: true })).toBe(false);
    expect(isReferenceEvent({ ...ref, truncated: false })).toBe(false);
  });
});

describe("subjectsForSelector", () => {
  it("narrows by schema_name, owner and types", () => {
    expect(subjectsForSelector({ schema_name: "browser.page.context.v1" })).toEqual(["crumbs.*.*.browser.page.context.v1"]);
    expect(subjectsForSelector({ schema_name: ["a.v1", "b.v2"] }, { owner: "default", types: ["created", "updated"] })).toEqual([
      "crumbs.default.created.a.v1",
      "crumbs.default.created.b.v2",
      "crumbs.default.updated.a.v1",
      "crumbs.default.updated.b.v2",
    ]);
    expect(subjectsForSelector({ any_tags: ["x"] }, { owner: "o" })).toEqual(["crumbs.o.*.>"]);
    expect(subjectsForSelector({}, { types: ["deleted"] })).toEqual(["crumbs.*.deleted.>"]);
    expect(subjectsForSelector({}, { types: ["deleted", "created", "updated"] })).toEqual(["crumbs.*.*.>"]);
  });
  it("rejects a bad selector or owner", () => {
    expect(() => subjectsForSelector({ schema_name: "x.>" })).toThrow(InvalidSelectorError);
    expect(() => subjectsForSelector({}, { owner: "a.b" })).toThrow(InvalidSelectorError);
  });
  it("drops duplicates and covered subjects across selectors", () => {
    expect(subjectsForSelectors([{ schema_name: "a.v1" }, { schema_name: "a.v1", any_tags: ["t"] }, { schema_name: "b.v1" }])).toEqual([
      "crumbs.*.*.a.v1",
      "crumbs.*.*.b.v1",
    ]);
    expect(subjectsForSelectors([{ schema_name: "a.v1" }, {}])).toEqual(["crumbs.*.*.>"]);
  });
  it("subjectCovers", () => {
    expect(subjectCovers("crumbs.*.*.>", "crumbs.o.updated.a.v1")).toBe(true);
    expect(subjectCovers("crumbs.*.updated.a.v1", "crumbs.o.updated.a.v1")).toBe(true);
    expect(subjectCovers("crumbs.o.updated.a.v1", "crumbs.*.updated.a.v1")).toBe(false);
    expect(subjectCovers("crumbs.*.updated.>", "crumbs.*.created.a.v1")).toBe(false);
    expect(subjectCovers("crumbs.*.*.a.v1", "crumbs.*.*.a.v1.x")).toBe(false);
  });
});
