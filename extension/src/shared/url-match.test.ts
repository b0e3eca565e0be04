import { describe, expect, it } from "vitest";
import { checkUrlPattern, urlMatches } from "./url-match.ts";

describe("urlMatches", () => {
  const href = "http://127.0.0.1:5000/actions-wait.html?step=2#done";
  it("matches substrings", () => {
    expect(urlMatches(href, "step=2")).toBe(true);
    expect(urlMatches(href, "step=3")).toBe(false);
  });
  it("matches whole-URL globs", () => {
    expect(urlMatches(href, "*actions-wait.html*")).toBe(true);
    expect(urlMatches(href, "*actions-wait.html")).toBe(false);
    expect(urlMatches("http://a.test/x.y", "http://a.test/x?y")).toBe(false);
  });
  it("matches /regex/", () => {
    expect(urlMatches(href, "/step=\\d+/")).toBe(true);
    expect(urlMatches(href, "/^https:/")).toBe(false);
  });
  it("flags bad patterns", () => {
    expect(checkUrlPattern("/[/")).toMatch(/not a valid regular expression/);
    expect(checkUrlPattern("x".repeat(600))).toMatch(/longer/);
    expect(checkUrlPattern("done")).toBeUndefined();
  });
});
