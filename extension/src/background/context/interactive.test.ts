import { describe, expect, it } from "vitest";
import { interactiveElements } from "./interactive.ts";

describe("interactiveElements", () => {
  it("keys each ref line by its ref with role and name", () => {
    const text = [
      '- heading "Pricing" [level=2]',
      '- button "Submit" [ref=e12]',
      '  - textbox "Email" [ref=e3]: me@example.com',
      '- link "Docs \\"v2\\"" [ref=f1e7] -> /docs',
      "- text: plain",
      "- checkbox [ref=e9] [checked]",
      '- textbox "Password" [ref=e4] [required] [secret]',
      '- button "[secret]" [ref=e5]',
    ].join("\n");
    expect(interactiveElements(text)).toEqual({
      e12: { role: "button", name: "Submit" },
      e3: { role: "textbox", name: "Email" },
      f1e7: { role: "link", name: 'Docs "v2"' },
      e9: { role: "checkbox", name: "" },
      e4: { role: "textbox", name: "Password", secret: true },
      e5: { role: "button", name: "[secret]" },
    });
  });

  it("stops at the limit", () => {
    const text = Array.from({ length: 10 }, (_, i) => `- button "B${i}" [ref=e${i}]`).join("\n");
    expect(Object.keys(interactiveElements(text, 3))).toEqual(["e0", "e1", "e2"]);
  });
});
