import { describe, expect, it } from "vitest";
import { extensionConsumerName, extensionInboxPrefix } from "./extension-consumer.ts";
import { ownerPermissions } from "./permissions.ts";

describe("ownerPermissions", () => {
  it("an agent uses JetStream in its owner's account, publishes only replays, never on crumbs.> or the CRUMBS stream's config", () => {
    const p = ownerPermissions("A");
    expect(p.sub).toEqual(["*.A.>", "_INBOX.>"]);
    expect(p.pub).toEqual(["$JS.API.>", "$JS.ACK.>", "$JS.FC.>", "_INBOX.>", "*.A.>"]);
    expect(p.deny?.pub).toContain("crumbs.>");
    for (const call of ["CREATE", "UPDATE", "DELETE", "PURGE", "MSG.DELETE"]) expect(p.deny?.pub).toContain(`$JS.API.STREAM.${call}.CRUMBS`);
  });

  it("an extension may create, read and pull exactly its own durable, filtered to its owner's actions", () => {
    const p = ownerPermissions("team-1", { kind: "extension", extensionId: "abcdefghijklmnop" });
    const durable = "crumbs-ext-team-1-abcdefghijklmnop";
    expect(p.pub).toEqual([
      `$JS.API.CONSUMER.CREATE.CRUMBS.${durable}.crumbs.team-1.created.browser.action.v1`,
      `$JS.API.CONSUMER.INFO.CRUMBS.${durable}`,
      `$JS.API.CONSUMER.MSG.NEXT.CRUMBS.${durable}`,
      `$JS.ACK.CRUMBS.${durable}.>`,
    ]);
    expect(p.sub).toEqual(["crumbs.team-1.*.browser.action.v1", "crumbs.team-1.*.agent.response.v1", "crumbs.team-1.*.browser.context.interest.v1", "_INBOX_team-1.>"]);
    // Nothing wider than one durable, one owner: no wildcard in a JetStream API subject, no shared inbox.
    for (const s of p.pub.filter((s) => s.startsWith("$JS.API"))) expect(s).not.toMatch(/[*>]/);
    expect(p.sub).not.toContain("_INBOX.>");
  });

  it("the durable name cannot be shared by two owners, whatever id one of them asks for", () => {
    expect(extensionConsumerName("team-x", "abc")).toBe("crumbs-ext-team-x-abc");
    expect(() => extensionConsumerName("team", "x-abc")).toThrow(/extension id/);
    expect(extensionInboxPrefix("A")).toBe("_INBOX_A");
  });

  it("refuses owners and extension ids that would widen a subject", () => {
    for (const bad of ["a.b", "*", ">", "a b", ""]) {
      expect(() => ownerPermissions(bad)).toThrow();
      expect(() => ownerPermissions("A", { kind: "extension", extensionId: bad })).toThrow();
    }
  });
});
