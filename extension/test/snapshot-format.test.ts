import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness.ts";

interface Snap {
  text: string;
  refs: number;
  tokens: number;
  truncated: boolean;
  url: string;
  title: string;
  tree?: unknown[];
}

let h: Harness;

async function snapshot(params: Record<string, unknown> = {}): Promise<Snap> {
  const r = await h.execute({ type: "snapshot", params });
  expect(r.error).toBeUndefined();
  expect(r.success).toBe(true);
  return r.data as Snap;
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("snapshot text format in Chromium", () => {
  it("renders a form with roles, names, states, values and links", async () => {
    const page = await h.openFixture("snap-form.html");
    const s = await snapshot();
    expect(s.title).toBe("Sign in form");
    const lines = s.text.split("\n");
    const has = (re: RegExp) => expect(lines.some((l) => re.test(l)), `${re} in\n${s.text}`).toBe(true);
    has(/^ {4}- link "Docs" \[ref=e\d+\] -> \/docs$/);
    has(/^ {4}- link "Pricing" \[ref=e\d+\] -> https:\/\/example\.com\/pricing$/);
    has(/^ {2}- heading "Pricing" \[level=2\]$/);
    has(/^ {4}- textbox "Email" \[ref=e\d+\] \[required\]: ada@example\.com$/);
    has(/^ {4}- textbox "About you" \[ref=e\d+\]: Likes math$/);
    has(/^ {4}- searchbox "Search docs" \[ref=e\d+\]$/);
    has(/^ {4}- textbox "Phone number" \[ref=e\d+\]$/);
    has(/^ {4}- checkbox "Remember me" \[ref=e\d+\] \[checked\]$/);
    has(/^ {4}- radio "Yearly" \[ref=e\d+\] \[checked\]$/);
    has(/^ {4}- combobox "Country" \[ref=e\d+\]: Japan$/);
    has(/^ {4}- button "Submit" \[ref=e\d+\]$/);
    has(/^ {4}- button "Disabled action" \[ref=e\d+\] \[disabled\]$/);
    has(/^ {4}- button "Toggle" \[ref=e\d+\] \[expanded=false\] \[pressed\]$/);
    has(/^ {4}- button "Send" \[ref=e\d+\]$/);
    has(/^ {2}- button "Custom button" \[ref=e\d+\]$/);
    has(/^ {2}- generic "Clickable card" \[ref=e\d+\]$/);
    has(/^ {2}- textbox "Editor" \[ref=e\d+\]: Editable text$/);
    has(/^ {2}- heading "Aria level heading" \[level=4\]$/);
    has(/^ {4}- listitem: First item$/);
    // Refs only on actionable elements: headings, images and text never get one.
    for (const l of lines.filter((l) => /^\s*- (heading|img|text|paragraph)[ :]/.test(l))) expect(l).not.toContain("[ref=");
    // The password and the one-time code never show; the fields themselves do.
    expect(s.text).not.toContain("hunter2");
    expect(s.text).not.toContain("918273");
    // Secret fields: marked (agents may not type into them), never with a value.
    has(/^ {4}- textbox "Password" \[ref=e\d+\] \[secret\]$/);
    has(/^ {4}- textbox "Code" \[ref=e\d+\] \[secret\]$/);
    await page.close();
  });

  it("gives the same refs and the same text for an unchanged page", async () => {
    const page = await h.openFixture("snap-form.html");
    const a = await snapshot();
    const b = await snapshot();
    expect(b.text).toBe(a.text);
    // A change elsewhere on the page keeps the refs of untouched elements.
    await page.evaluate(() => document.querySelector("main")!.insertAdjacentHTML("afterbegin", "<button>New first</button>"));
    const c = await snapshot();
    const submitRef = (t: string) => /button "Submit" \[ref=(e\d+)\]/.exec(t)?.[1];
    expect(submitRef(c.text)).toBe(submitRef(a.text));
    expect(c.text).toMatch(/button "New first" \[ref=e\d+\]/);
    await page.close();
  });

  it("leaves out hidden elements and marks covered ones without a ref", async () => {
    const page = await h.openFixture("snap-hidden.html");
    const s = await snapshot();
    expect(s.text).toContain('- button "Visible button" [ref=');
    expect(s.text).toContain('- button "Visible child of hidden" [ref=');
    for (const hidden of [
      "Display none",
      "Visibility hidden button",
      "Opacity zero",
      "transparent box",
      "Zero size",
      "Hidden attribute",
      "Aria hidden",
      "Inert",
      "Screen reader only",
      "Clipped away",
      "Inside closed details",
      "Template",
    ]) {
      expect(s.text, hidden).not.toContain(hidden);
    }
    expect(s.text).toContain('- button "More" [ref=');
    expect(s.text).toContain('- button "Covered button" [covered]');
    expect(s.text).toContain('- button "Overlay close" [ref=');
    await page.close();
  });

  it("walks open shadow roots and slotted content, not closed ones", async () => {
    const page = await h.openFixture("snap-shadow.html");
    const s = await snapshot();
    expect(s.text).toBe(
      [
        '- heading "Shadow page" [level=1]',
        '- region "Card"',
        '  - heading "Slotted title text" [level=2]',
        '  - textbox "Query" [ref=e1]: in shadow',
        '  - button "Shadow button" [ref=e2]',
        '  - link "Nested shadow link" [ref=e3] -> /nested',
      ].join("\n"),
    );
    await page.close();
  });

  it("puts same-origin and cross-origin frames inline with f<n> ref prefixes", async () => {
    const page = await h.openFixture("snap-iframes.html");
    await page.frames()[2]?.waitForLoadState("load");
    const s = await snapshot();
    const lines = s.text.split("\n");
    expect(lines[0]).toBe('- heading "Parent page" [level=1]');
    expect(lines[1]).toMatch(/^- button "Parent button" \[ref=e\d+\]$/);
    expect(lines[2]).toBe('- iframe "Same origin"');
    expect(lines[3]).toBe('  - heading "Inside the frame" [level=2]');
    expect(lines[4]).toMatch(/^ {2}- button "Framed button" \[ref=f\d+e\d+\]$/);
    expect(lines[5]).toMatch(/^ {2}- textbox "Frame input" \[ref=f\d+e\d+\]: framed value$/);
    expect(lines[7]).toBe('- iframe "Cross origin"');
    const prefixes = [...s.text.matchAll(/\[ref=(f\d+)e\d+\]/g)].map((m) => m[1]);
    expect(new Set(prefixes).size).toBe(2);
    expect(s.text).not.toContain("frame-secret-77");
    expect(s.refs).toBe(7);
    // A snapshot rooted in a frame keeps that frame's prefix.
    const crossButton = /iframe "Cross origin"\n.*\n {2}- button "Framed button" \[ref=(f\d+e\d+)\]/.exec(s.text)?.[1];
    const rooted = await snapshot({ root_ref: crossButton });
    expect(rooted.text).toBe(`- button "Framed button" [ref=${crossButton}]`);
    await page.close();
  });

  it("shows React-controlled values and the JSON form matches the text", async () => {
    const page = await h.openFixture("snap-react.html");
    await page.waitForSelector("form");
    const s = await snapshot({ format: "json" });
    expect(s.text).toMatch(/- textbox "Full name" \[ref=e\d+\]: Ada/);
    expect(s.text).toContain("- status: Typed: Ada");
    await page.fill("input:not([type])", "Grace");
    const after = await snapshot({ format: "json" });
    expect(after.text).toMatch(/- textbox "Full name" \[ref=e\d+\]: Grace/);
    const json = JSON.stringify(after.tree);
    expect(json).toContain('"value":"Grace"');
    expect(after.tree?.length).toBeGreaterThan(0);
    await page.close();
  });

  it("routes an f<n> ref to its own frame, and a reload makes every old ref stale", async () => {
    const page = await h.openFixture("snap-iframes.html");
    await page.frames()[2]?.waitForLoadState("load");
    const s = await snapshot();
    const input = /iframe "Cross origin"\n(?:.*\n){2} {2}- textbox "Frame input" \[ref=(f\d+e\d+)\]/.exec(s.text)?.[1];
    expect(input).toBeDefined();
    const filled = await h.execute({ type: "fill", params: { ref: input, value: "typed in frame" } });
    expect(filled.success).toBe(true);
    const cross = page.frames().find((f) => f.url().startsWith(h.server.otherOrigin));
    expect(await cross?.inputValue("#fi")).toBe("typed in frame");
    const parentRef = /button "Parent button" \[ref=(e\d+)\]/.exec(s.text)?.[1];
    await page.reload();
    for (const ref of [input, parentRef]) {
      const r = await h.execute({ type: "click", params: { ref } });
      expect(r).toMatchObject({ success: false, code: "stale_ref" });
    }
    await page.close();
  });

  it("answers a ref that is gone with stale_ref", async () => {
    const page = await h.openFixture("snap-form.html");
    const s = await snapshot();
    const ref = /button "Submit" \[ref=(e\d+)\]/.exec(s.text)?.[1];
    await page.evaluate(() => document.querySelector("button[type=submit]")!.remove());
    const r = await h.execute({ type: "snapshot", params: { root_ref: ref } });
    expect(r).toMatchObject({ success: false, code: "stale_ref" });
    expect(r.error).toMatch(/take a new snapshot/);
    const bad = await h.execute({ type: "snapshot", params: { max_tokens: "lots" } });
    expect(bad).toMatchObject({ success: false, code: "invalid_params" });
    await page.close();
  });
});
