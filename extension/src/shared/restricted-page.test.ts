import { describe, expect, it } from "vitest";
import { isChromeAccessRefusal, isRestrictedUrl, restrictedPageHelp } from "./restricted-page.ts";

describe("restrictedPageHelp", () => {
  it("a blank or new tab: nothing to read, open a page", () => {
    for (const url of ["about:blank", "chrome://newtab/", "chrome://new-tab-page/", ""]) {
      expect(restrictedPageHelp(url)).toBe(
        "This tab is empty: there is no page for crumbs to read or act on. To use the agent here, open a web page (an http or https address) in this tab, or go to a tab that shows one, then ask again.",
      );
    }
  });

  it("Chrome's pages and the Web Store: closed to every extension, said so", () => {
    expect(restrictedPageHelp("chrome://extensions/")).toMatch(/^Chrome lets no extension read or act on its own pages \(chrome:\)\. To use the agent, open a web page/);
    expect(restrictedPageHelp("https://chromewebstore.google.com/detail/x")).toMatch(/^Chrome lets no extension read or act on the Chrome Web Store\./);
    expect(restrictedPageHelp("chrome-extension://abc/sidepanel.html")).toContain("(chrome-extension:)");
  });

  it("an ordinary page: nothing to say", () => {
    expect(restrictedPageHelp("https://example.com/")).toBeUndefined();
    expect(restrictedPageHelp("http://127.0.0.1:8080/app.html")).toBeUndefined();
  });
});

describe("isRestrictedUrl and Chrome's refusal", () => {
  it("about:blank is scriptable through its opener; chrome:// and the store are not", () => {
    expect(isRestrictedUrl("about:blank")).toBe(false);
    expect(isRestrictedUrl("chrome://settings")).toBe(true);
    expect(isRestrictedUrl("https://chrome.google.com/webstore/category")).toBe(true);
    expect(isRestrictedUrl("https://example.com")).toBe(false);
  });

  it("recognises Chrome's raw messages", () => {
    expect(isChromeAccessRefusal('Cannot access contents of url "about:blank". Extension manifest must request permission to access this host.')).toBe(true);
    expect(isChromeAccessRefusal("Cannot access a chrome:// URL")).toBe(true);
    expect(isChromeAccessRefusal("The extensions gallery cannot be scripted.")).toBe(true);
    expect(isChromeAccessRefusal("no tab with id 4")).toBe(false);
  });
});
