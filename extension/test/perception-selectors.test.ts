import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { MAX_REGEX_LENGTH } from "@crumbs/schemas";
import { startHarness, type Harness } from "./harness.ts";
import { fails, ok, pageVar, refIn, run, snapshot } from "./actions-helpers.ts";

// Role selectors with each of their features, and `details`, in real Chromium
// (fixtures/perception-selectors.html, with a cross-origin "Payment" iframe holding a "Card" iframe).

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.openFixture("perception-selectors.html");
  await Promise.all(page.frames().map((f) => f.waitForLoadState("load")));
  await page.waitForFunction(() => document.querySelectorAll("iframe").length === 1);
});
afterAll(async () => {
  await h?.close();
});

const clicks = () => pageVar<string[]>(page, "clicks");
const lastClick = async () => (await clicks()).at(-1);
const click = (selector: Record<string, unknown>) => ok(h, "click", { selector });

describe("role selectors", () => {
  it("name: includes prefers the whole name, exact keeps case, regex is RE2", async () => {
    await click({ role: "link", name: "product 1" });
    expect(await lastClick()).toBe("product-1");
    await click({ role: "link", name: "Product 12", nameMode: "exact" });
    expect(await lastClick()).toBe("product-12");
    await fails(h, "click", { selector: { role: "link", name: "product 12", nameMode: "exact" } }, "not_found");
    await click({ role: "link", name: "^Product 1[01]$", nameMode: "regex", nth: 1 });
    expect(await lastClick()).toBe("product-11");
    await click({ role: "link", name: "(?i)^PRODUCT 7$", nameMode: "regex" });
    expect(await lastClick()).toBe("product-7");
  });

  it("a regex that is not RE2, or too long, is invalid_params with the reason; nothing is clicked", async () => {
    const before = (await clicks()).length;
    expect(await fails(h, "click", { selector: { role: "link", name: "(a)\\1", nameMode: "regex" } }, "invalid_params")).toMatch(/backreferences/);
    expect(await fails(h, "click", { selector: { role: "link", name: "(?=Product)", nameMode: "regex" } }, "invalid_params")).toMatch(/lookahead/);
    expect(await fails(h, "click", { selector: { role: "link", name: "(", nameMode: "regex" } }, "invalid_params")).toMatch(/RE2 syntax/);
    await fails(h, "click", { selector: { role: "link", name: "x".repeat(MAX_REGEX_LENGTH + 1), nameMode: "regex" } }, "invalid_params");
    expect((await clicks()).length).toBe(before);
  });

  it("states: checked, pressed, disabled, expanded, selected", async () => {
    await click({ role: "checkbox", states: { checked: false } });
    expect(await lastClick()).toBe("subscribe");
    await click({ role: "button", states: { pressed: true } });
    expect(await lastClick()).toBe("bold");
    await click({ role: "button", name: "Options", states: { expanded: false } });
    expect(await lastClick()).toBe("menu-closed");
    await click({ role: "button", name: "Delete", states: { disabled: false } });
    expect(await lastClick()).toBe("delete-enabled");
    await click({ role: "tab", states: { selected: false } });
    expect(await lastClick()).toBe("tab-b");
  });

  it("within a landmark: by role word, by HTML word, by name", async () => {
    await click({ role: "link", name: "Home", within: { landmark: "footer" } });
    expect(await lastClick()).toBe("home-footer");
    await click({ role: "link", name: "Home", within: { landmark: "navigation" } });
    expect(await lastClick()).toBe("home-header");
    await click({ role: "button", name: "Save", within: { landmark: "form", name: "profile" } });
    expect(await lastClick()).toBe("save-profile");
    expect(await fails(h, "click", { selector: { role: "button", within: { landmark: "aside" } } }, "not_found")).toMatch(/no aside/);
  });

  it("ambiguity without nth lists the candidates by ref; one of them acts directly", async () => {
    const before = (await clicks()).length;
    const result = await run(h, "click", { selector: { role: "button", name: "Save" } });
    expect(result).toMatchObject({ success: false, code: "invalid_params" });
    expect(result.error).toMatch(/matches 2 elements: e\d+ button "Save", e\d+ button "Save"/);
    expect(result.candidates).toHaveLength(2);
    expect((await clicks()).length).toBe(before);
    await ok(h, "click", { ref: result.candidates![0]!.ref });
    expect(await lastClick()).toBe("save-signin");
  });

  it("a frame path enters a cross-origin iframe, and one inside it", async () => {
    const payment = page.frames().find((f) => f.url().endsWith("/perception-frame.html"))!;
    const card = page.frames().find((f) => f.url().endsWith("/perception-card.html"))!;
    await click({ role: "button", name: "Pay now", frame: ["Payment"] });
    expect(await payment.textContent("#pay-status")).toBe("paid");
    await click({ role: "button", name: "^Confirm", nameMode: "regex", frame: ["payment", "Card"] });
    expect(await card.textContent("#card-status")).toBe("confirmed");
    expect(await fails(h, "click", { selector: { role: "button", name: "Pay now", frame: ["Checkout"] } }, "not_found")).toMatch(/no iframe titled or named "Checkout"/);
    // Without the path the top frame has no such button.
    await fails(h, "click", { selector: { role: "button", name: "Pay now" } }, "not_found");
  });
});

interface Details {
  role: string;
  name: string;
  value?: string;
  nearby?: string;
  form: { label?: string; purpose: string; fields: Array<{ ref: string; label: string; secret?: boolean }>; submit?: { label: string } };
}

describe("details", () => {
  it("of a form field: role, name, states, place, and its form with every field by ref", async () => {
    const text = await snapshot(h);
    const data = await ok<Details>(h, "details", { ref: refIn(text, 'textbox "Email"') });
    expect(data).toMatchObject({ role: "textbox", name: "Email", landmark: 'form "Sign in"' });
    expect(data.form).toMatchObject({ label: "Sign in", fields: [{ label: "Email", type: "text" }] });
    expect(data.form.fields[0]!.ref).toBe(refIn(text, 'textbox "Email"'));
  });

  it("of a secret field: its value is never shown", async () => {
    await h.openFixture("actions-forms.html");
    const text = await snapshot(h);
    const data = await ok<Details>(h, "details", { ref: refIn(text, 'textbox "Password"') });
    expect(data).toMatchObject({ role: "textbox", name: "Password", value: "[secret]", states: { secret: true } });
    expect(JSON.stringify(data)).not.toContain("prefilled-secret-9");
    expect(data.form.purpose).toBe("login");
    expect(data.form.fields.filter((f) => f.secret).map((f) => f.label)).toEqual(["Password", "Code"]);
    expect(data.form.submit).toMatchObject({ label: "Save" });
  });

  it("of a card's button: the text beside it and its collection", async () => {
    await h.openFixture("gen/typical-800.html");
    const text = await snapshot(h);
    const lines = text.split("\n");
    const card = lines.findIndex((l) => l.includes('link "Product number 3"'));
    const ref = lines.slice(card).find((l) => l.includes('button "Add to cart"'))!.match(/\[ref=(e\d+)\]/)![1]!;
    const data = await ok<Details>(h, "details", { ref });
    expect(data).toMatchObject({ role: "button", name: "Add to cart", landmark: "main", collection: { count: 32, index: 3 } });
    expect(data.nearby).toContain("Product number 3");
  });
});
