import { describe, expect, it } from "vitest";
import { checkWrite, hostMatches, isWriteAction } from "./allowlist.ts";

describe("allowlist host patterns", () => {
  it("*.example.com covers the apex and any depth of subdomain, nothing else", () => {
    expect(hostMatches("*.example.com", "example.com")).toBe(true);
    expect(hostMatches("*.example.com", "a.b.example.com")).toBe(true);
    expect(hostMatches("*.example.com", "EXAMPLE.com.")).toBe(true);
    expect(hostMatches("*.example.com", "badexample.com")).toBe(false);
    expect(hostMatches("*.example.com", "example.com.evil.net")).toBe(false);
  });

  it("a plain host is exact; * is any; blank is nothing", () => {
    expect(hostMatches("127.0.0.1", "127.0.0.1")).toBe(true);
    expect(hostMatches("example.com", "www.example.com")).toBe(false);
    expect(hostMatches("*", "anything.org")).toBe(true);
    expect(hostMatches("  ", "anything.org")).toBe(false);
  });
});

describe("checkWrite", () => {
  const list = ["*.example.com", "127.0.0.1"];

  it("reads are never limited, writes only to listed hosts", () => {
    expect(checkWrite("snapshot", "https://evil.net/", list).allowed).toBe(true);
    expect(checkWrite("click", "http://127.0.0.1:8080/x", list).allowed).toBe(true);
    expect(checkWrite("fill", "https://shop.example.com/", list).allowed).toBe(true);
    const v = checkWrite("click", "http://localhost:8080/", list);
    expect(v.allowed).toBe(false);
    if (!v.allowed) expect(v.reason).toMatch(/localhost.*allowlist/);
  });

  it("without an allowlist everything is allowed; an empty one allows no write", () => {
    expect(checkWrite("submit", "https://evil.net/", undefined).allowed).toBe(true);
    expect(checkWrite("submit", "https://example.com/", []).allowed).toBe(false);
    expect(checkWrite("open", "file:///etc/passwd", list).allowed).toBe(false);
  });

  it("knows which actions write", () => {
    for (const a of ["click", "fill", "type", "submit", "open", "tab_new"]) expect(isWriteAction(a)).toBe(true);
    for (const a of ["snapshot", "get", "extract", "scroll", "tab_list", "wait_for"]) expect(isWriteAction(a)).toBe(false);
  });
});
