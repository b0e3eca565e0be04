import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { fails, ok, refIn, seen, snapshot, pageVar, type LogEntry } from "./actions-helpers.ts";

const TYPED_SECRET = "hunter2-typed-secret";
const PREFILLED_SECRET = "prefilled-secret-9";

let h: Harness;
let page: Page;
let text: string;
beforeAll(async () => {
  h = await startHarness();
  page = await h.openFixture("actions-forms.html");
  text = await snapshot(h);
});
afterAll(async () => {
  await h?.close();
});

const value = (id: string) => page.evaluate((i) => (document.getElementById(i) as HTMLInputElement).value, id);

describe("fill", () => {
  it("replaces a text field's value and reads it back", async () => {
    await page.fill("#name", "old text");
    const data = await ok(h, "fill", { ref: refIn(text, 'textbox "Name"'), value: "Ada Lovelace" });
    expect(data).toMatchObject({ filled: 'textbox "Name"', value: "Ada Lovelace" });
    expect(await value("name")).toBe("Ada Lovelace");
  });

  it("fills email, textarea, date and number fields", async () => {
    await ok(h, "fill", { selector: { role: "textbox", name: "Email" }, value: "ada@example.com" });
    await ok(h, "fill", { selector: { css: "#bio" }, value: "line one\nline two" });
    await ok(h, "fill", { selector: { css: "#birthday" }, value: "1815-12-10" });
    await ok(h, "fill", { selector: { role: "spinbutton", name: "Age" }, value: "36" });
    expect([await value("email"), await value("bio"), await value("birthday"), await value("age")]).toEqual([
      "ada@example.com",
      "line one\nline two",
      "1815-12-10",
      "36",
    ]);
  });

  it("refuses a value the field cannot hold, and the wrong kind of field", async () => {
    expect(await fails(h, "fill", { selector: { css: "#birthday" }, value: "next tuesday" }, "invalid_params")).toMatch(/format/);
    await fails(h, "fill", { selector: { css: "#country" }, value: "fr" }, "invalid_params");
    await fails(h, "fill", { selector: { css: "#newsletter" }, value: "x" }, "invalid_params");
    expect(await fails(h, "fill", { selector: { css: "#locked" }, value: "x", timeout_ms: 200 }, "not_actionable")).toMatch(/editable/);
    await fails(h, "fill", { selector: { css: "#off" }, value: "x", timeout_ms: 200 }, "not_actionable");
    await fails(h, "fill", { ref: refIn(text, 'textbox "Name"') }, "invalid_params");
  });

  it("fills a contenteditable through the editing pipeline", async () => {
    const data = await ok(h, "fill", { selector: { css: "#editor" }, value: "Meeting notes" });
    expect(data.value).toBe("Meeting notes");
    expect(await page.evaluate(() => document.getElementById("editor")!.innerText)).toBe("Meeting notes");
    expect((await pageVar<LogEntry[]>(page, "events")).filter((e) => e.type === "editor-input").map((e) => e.detail)).toContain(
      "insertText",
    );
  });

  it("a Vue-style model sees the value and does not reset it", async () => {
    await ok(h, "fill", { selector: { css: "#vue-city" }, value: "Paris" });
    await page.waitForTimeout(100); // the model's watcher runs every 30 ms and would revert a value it never saw
    expect(await value("vue-city")).toBe("Paris");
    expect(await page.textContent("#vue-echo")).toBe("city=Paris");
  });

  it("a password is filled but its value never appears in a result", async () => {
    const data = await ok(h, "fill", { selector: { css: "#password" }, value: TYPED_SECRET });
    expect(data).toEqual({ filled: 'textbox "Password"', value_length: TYPED_SECRET.length, redacted: true });
    expect(await value("password")).toBe(TYPED_SECRET);
    await ok(h, "fill", { selector: { css: "#otp" }, value: "123456" });
  });
});

describe("type and press", () => {
  it("types per character, appending, with an optional delay", async () => {
    const started = Date.now();
    const data = await ok(h, "type", { selector: { css: "#name" }, value: " II", delay: 30 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(data.value).toBe("Ada Lovelace II");
  });

  it("press Control+A then Backspace clears a field; Tab moves focus", async () => {
    await ok(h, "press", { selector: { css: "#name" }, key: "Control+A" });
    await ok(h, "press", { key: "Backspace" });
    expect(await value("name")).toBe("");
    const data = await ok(h, "press", { key: "Tab" });
    expect(data.focused).toBe('textbox "Email"');
    await ok(h, "press", { key: "Shift+Tab" });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("name");
  });

  it("types into a contenteditable, a Vue-style model and a password field (reported by length only)", async () => {
    await ok(h, "type", { selector: { css: "#editor" }, value: " today" });
    expect(await page.evaluate(() => document.getElementById("editor")!.innerText)).toBe("Meeting notes today");
    await ok(h, "type", { selector: { css: "#vue-city" }, value: " 15e" });
    await page.waitForTimeout(100);
    expect(await page.textContent("#vue-echo")).toBe("city=Paris 15e");
    const data = await ok(h, "type", { selector: { css: "#password" }, value: "!" });
    expect(data).toMatchObject({ value_length: TYPED_SECRET.length + 1, redacted: true });
    expect(data).not.toHaveProperty("value");
  });

  it("rejects keys it does not know", async () => {
    expect(await fails(h, "press", { key: "Ctrl+Foo" }, "invalid_params")).toMatch(/unknown key/);
  });
});

describe("check, uncheck, select", () => {
  it("checks and unchecks a checkbox, idempotently", async () => {
    const ref = refIn(text, 'checkbox "Newsletter"');
    expect(await ok(h, "check", { ref })).toMatchObject({ changed: true });
    expect(await ok(h, "check", { ref })).toMatchObject({ changed: false });
    expect(await page.isChecked("#newsletter")).toBe(true);
    await ok(h, "uncheck", { ref });
    expect(await page.isChecked("#newsletter")).toBe(false);
  });

  it("checks a visually hidden checkbox through its label, a radio, and an ARIA checkbox", async () => {
    await ok(h, "check", { selector: { css: "#terms" } });
    expect(await page.isChecked("#terms")).toBe(true);
    await ok(h, "check", { selector: { role: "radio", name: "Pro" } });
    expect(await page.isChecked("#plan-pro")).toBe(true);
    await fails(h, "uncheck", { selector: { role: "radio", name: "Pro" } }, "invalid_params");
    await ok(h, "check", { selector: { css: "#aria-box" } });
    expect(await page.getAttribute("#aria-box", "aria-checked")).toBe("true");
    await fails(h, "check", { selector: { css: "#name" } }, "not_actionable");
  });

  it("selects by value or by label, several in a multi-select, and names the options when none match", async () => {
    expect(await ok(h, "select", { selector: { css: "#country" }, value: "de" })).toMatchObject({ selected: [{ value: "de", label: "Germany" }] });
    await ok(h, "select", { selector: { css: "#country" }, value: "France" });
    expect(await value("country")).toBe("fr");
    await ok(h, "select", { selector: { css: "#toppings" }, value: ["ham", "Egg"] });
    expect(await page.evaluate(() => [...(document.getElementById("toppings") as HTMLSelectElement).selectedOptions].map((o) => o.value))).toEqual([
      "ham",
      "egg",
    ]);
    expect(await fails(h, "select", { selector: { css: "#country" }, value: "Spain" }, "not_found")).toContain('"Germany" (value "de")');
    await fails(h, "select", { selector: { css: "#country" }, value: "Japan" }, "not_actionable");
  });
});

describe("submit", () => {
  it("reports invalid fields instead of submitting, then submits once they are filled", async () => {
    expect(await fails(h, "submit", { selector: { css: "#name" } }, "not_actionable")).toMatch(/Required/);
    await ok(h, "fill", { selector: { css: "#required" }, value: "yes" });
    await ok(h, "fill", { selector: { css: "#name" }, value: "Grace" });
    await ok(h, "submit", { selector: { css: "#name" } });
    expect((await pageVar<LogEntry[]>(page, "events")).filter((e) => e.type === "submit")).toEqual([{ type: "submit", detail: "Grace" }]);
  });
});

describe("privacy", () => {
  it("get never returns a password, even from the value attribute or the HTML", async () => {
    expect(await ok(h, "get", { selector: { css: "#password" }, what: "value" })).toMatchObject({ redacted: true });
    expect(await ok(h, "get", { selector: { css: "#password" }, what: "attribute", name: "value" })).toMatchObject({ redacted: true });
    const html = await ok<{ text: string }>(h, "get", { selector: { css: "#profile" }, what: "html", max_chars: 50_000 });
    expect(html.text).toContain('id="password"');
    expect(await ok(h, "get", { selector: { css: "#otp" }, what: "value" })).toMatchObject({ redacted: true });
  });

  it("a password field switched to plain text by a show-password toggle stays redacted", async () => {
    await page.evaluate(() => document.getElementById("password")!.setAttribute("type", "text"));
    expect(await ok(h, "get", { selector: { css: "#password" }, what: "value" })).toMatchObject({ redacted: true });
    const html = await ok<{ text: string }>(h, "get", { selector: { css: "#profile" }, what: "html", max_chars: 50_000 });
    expect(html.text).toContain('id="password"');
    await page.evaluate(() => document.getElementById("password")!.setAttribute("type", "password"));
  });

  it("no result of this file contained a secret", async () => {
    await snapshot(h);
    const all = JSON.stringify(seen);
    expect(all).not.toContain(TYPED_SECRET);
    expect(all).not.toContain(PREFILLED_SECRET);
    expect(all).not.toContain("123456");
  });
});
