import { describe, expect, it } from "vitest";
import { isSecretTarget, secretKnowledge, withheld } from "./secrets.ts";

const context = {
  dom: { interactiveElements: { e3: { role: "textbox", name: "Email" }, e4: { role: "textbox", name: "Password", secret: true }, e9: { role: "textbox", name: "Your PIN" } } },
  snapshot: { text: '- textbox "Email" [ref=e3]\n- textbox "Code" [ref=e7] [required] [secret]\n- button "[secret]" [ref=e8]' },
};

describe("secret targets", () => {
  const known = secretKnowledge([context], ['{"data":{"text":"- textbox \\"Card\\" [ref=f1e2] [secret]"}}']);
  it("finds fields the browser marked secret in the page context and in earlier snapshot results", () => {
    expect([...known.refs].sort()).toEqual(["e4", "e7", "f1e2"]);
  });
  it("refuses value actions on them, by ref, by name or by selector", () => {
    for (const ref of ["e4", "e7", "f1e2", "e9"]) expect(isSecretTarget("fill", { ref, value: "x" }, known), ref).toBe(true);
    expect(isSecretTarget("type", { selector: { role: "textbox", name: "Password" }, value: "x" }, known)).toBe(true);
    expect(isSecretTarget("fill", { selector: { css: "input[type=password]" }, value: "x" }, known)).toBe(true);
    expect(isSecretTarget("fill", { selector: { css: "[autocomplete=cc-number]" }, value: "x" }, known)).toBe(true);
    expect(isSecretTarget("fill", { selector: { xpath: "//input[@type='password']" }, value: "x" }, known)).toBe(true);
  });
  it("lets other fields and other actions through", () => {
    expect(isSecretTarget("fill", { ref: "e3", value: "a@b.c" }, known)).toBe(false);
    expect(isSecretTarget("fill", { ref: "e8", value: "x" }, known)).toBe(false);
    expect(isSecretTarget("click", { ref: "e4" }, known)).toBe(false);
  });
  it("finds secret fields a pcd, a query answer, a form's details or a stale ref's candidates mark as data", () => {
    const pcd = { forms: [{ id: "f1", fields: [{ ref: "e20", label: "Password", type: "password", secret: true }, { ref: "e21", label: "Email", type: "email" }] }] };
    const query = JSON.stringify({ status: "ok", data: { results: [{ ref: "e30", role: "textbox", name: "One-time code", secret: true }, { ref: "e31", role: "button", name: "Go" }] } });
    const stale = JSON.stringify({ status: "error", code: "stale_ref", candidates: [{ ref: "f2e5", role: "textbox", name: "Card", secret: true }] });
    const k = secretKnowledge([{ pcd }], [query, stale, "not json {\"secret\":true"]);
    expect([...k.refs].sort()).toEqual(["e20", "e30", "f2e5"]);
    expect(isSecretTarget("fill", { ref: "e30", value: "123456" }, k)).toBe(true);
    expect(isSecretTarget("fill", { ref: "e21", value: "a@b.c" }, k)).toBe(false);
  });
  it("stores the call without its value", () => {
    expect(withheld({ ref: "e4", value: "hunter2" })).toEqual({ ref: "e4", value: "(withheld: not stored)" });
  });
});
