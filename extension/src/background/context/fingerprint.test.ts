import { describe, expect, it } from "vitest";
import { fingerprint } from "./fingerprint.ts";

const base = {
  url: "https://example.com/a",
  title: "A",
  tabId: 3,
  content: { mainText: "Hello", headings: ["A"], links: [{ text: "x", href: "/x" }], forms: [] },
  snapshot: { text: '- heading "A" [level=1]\n- button "Go" [ref=e1]' },
};

describe("fingerprint", () => {
  it("ignores capture time, scroll and viewport", () => {
    const a = fingerprint(base);
    const b = fingerprint({ ...base, capturedAt: "later", viewport: { scrollY: 400 } } as typeof base);
    expect(a).toBe(b);
  });

  it("changes with what an agent reads", () => {
    const a = fingerprint(base);
    expect(fingerprint({ ...base, url: "https://example.com/b" })).not.toBe(a);
    expect(fingerprint({ ...base, title: "B" })).not.toBe(a);
    expect(fingerprint({ ...base, tabId: 4 })).not.toBe(a);
    expect(fingerprint({ ...base, content: { ...base.content, headings: ["A", "B"] } })).not.toBe(a);
    expect(fingerprint({ ...base, snapshot: { text: base.snapshot.text + "\n- text: Saved" } })).not.toBe(a);
  });
});
