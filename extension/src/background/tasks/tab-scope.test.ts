import { describe, expect, it } from "vitest";
import { allows, newScope, pruneScopes, withClosed, withCurrent, withOpened, withSite } from "./tab-scope.ts";

describe("tab scope (the tab restriction)", () => {
  it("starts with the start tab; opened tabs join; others are refused", () => {
    let s = newScope(7);
    expect(allows(s, 7)).toBe(true);
    expect(allows(s, 8)).toBe(false);
    s = withOpened(s, 9);
    expect(allows(s, 9)).toBe(true);
    expect(s.current).toBe(9);
    s = withCurrent(s, 7);
    expect(s.current).toBe(7);
  });

  it("writes go to the start site and the sites the user let the agent go to", () => {
    let s = newScope(1, ["example.com"]);
    expect(s.sites).toEqual(["example.com"]);
    s = withSite(withSite(s, "other.org"), "other.org");
    expect(s.sites).toEqual(["example.com", "other.org"]);
    expect(withSite(s, undefined)).toBe(s);
  });

  it("closing the current tab falls back to the last tab still owned", () => {
    let s = withOpened(withOpened(newScope(1), 2), 3);
    s = withClosed(s, 3);
    expect(s).toMatchObject({ tabs: [1, 2], current: 2 });
    expect(allows(s, 3)).toBe(false);
  });

  it("keeps the 50 most recent sessions", () => {
    const all = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`s${i}`, newScope(i, [], new Date(Date.UTC(2025, 0, 1, 0, i)))]),
    );
    const kept = pruneScopes(all);
    expect(Object.keys(kept)).toHaveLength(50);
    expect(kept.s59).toBeDefined();
    expect(kept.s0).toBeUndefined();
  });
});
