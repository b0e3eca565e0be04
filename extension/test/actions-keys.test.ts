import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { ok, pageSet, pageVar } from "./actions-helpers.ts";

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.openFixture("actions-keys.html");
});
afterAll(async () => {
  await h?.close();
});

const keys = () => pageVar<string[]>(page, "keys");
const reset = () => pageSet(page, "keys", []);

describe("keyboard", () => {
  it("type sends keydown, keypress, input and keyup per character, with codes", async () => {
    await ok(h, "type", { selector: { css: "#typed" }, value: "aB1" });
    expect(await page.inputValue("#typed")).toBe("aB1");
    expect(await keys()).toEqual([
      "typed:keydown:a:KeyA:65:", "typed:keypress:a:KeyA:97:", "typed:input:insertText:a", "typed:keyup:a:KeyA:65:",
      "typed:keydown:B:KeyB:66:S", "typed:keypress:B:KeyB:66:S", "typed:input:insertText:B", "typed:keyup:B:KeyB:66:S",
      "typed:keydown:1:Digit1:49:", "typed:keypress:1:Digit1:49:", "typed:input:insertText:1", "typed:keyup:1:Digit1:49:",
    ]);
  });

  it("a keydown the page cancels inserts nothing", async () => {
    await ok(h, "type", { selector: { css: "#blocked" }, value: "a1b2" });
    expect(await page.inputValue("#blocked")).toBe("ab");
  });

  it("press Control+A reports the modifier on the key events and selects the field", async () => {
    await reset();
    await ok(h, "press", { selector: { css: "#q" }, key: "Control+A" });
    expect(await keys()).toEqual(["q:keydown:Control:ControlLeft:17:C", "q:keydown:A:KeyA:65:C", "q:keyup:A:KeyA:65:C", "q:keyup:Control:ControlLeft:17:"]);
    expect(await page.evaluate(() => {
      const q = document.getElementById("q") as HTMLInputElement;
      return [q.selectionStart, q.selectionEnd];
    })).toEqual([0, 11]);
  });

  it("Enter in a field submits its form like a user would", async () => {
    await reset();
    await ok(h, "press", { selector: { css: "#q" }, key: "Enter" });
    expect((await keys()).filter((k) => k.startsWith("submit"))).toEqual(["submit:hello world"]);
  });

  it("Enter in a textarea inserts a newline; arrows and Backspace edit at the caret", async () => {
    await ok(h, "type", { selector: { css: "#area" }, value: "ab" });
    await ok(h, "press", { key: "Enter" });
    await ok(h, "type", { value: "cd" });
    await ok(h, "press", { key: "ArrowLeft" });
    await ok(h, "press", { key: "Backspace" });
    expect(await page.inputValue("#area")).toBe("ab\nd");
  });
});
