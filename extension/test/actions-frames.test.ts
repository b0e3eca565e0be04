import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { ok, refIn, snapshot, pageCall } from "./actions-helpers.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("shadow DOM", () => {
  it("fills and clicks inside an open shadow root by ref and by role selector", async () => {
    const page = await h.openFixture("actions-shadow.html");
    const text = await snapshot(h);
    await ok(h, "fill", { ref: refIn(text, 'textbox "Nickname"'), value: "ada" });
    await ok(h, "click", { ref: refIn(text, 'button "Follow"') });
    expect(await pageCall(page, "shadowStatus")).toBe("following ada");
    await ok(h, "type", { selector: { role: "textbox", name: "Nickname" }, value: "!" });
    await ok(h, "click", { selector: { text: "Follow" } });
    expect(await pageCall(page, "shadowStatus")).toBe("following ada!");
    expect(await ok(h, "get", { selector: { css: "#status" }, what: "text" })).toMatchObject({ text: "following ada!" });
  });
});

describe("iframes", () => {
  let page: Page;
  let text: string;
  beforeAll(async () => {
    page = await h.openFixture("actions-iframes.html");
    await page.waitForFunction(() => document.querySelectorAll("iframe").length === 2);
    await Promise.all(page.frames().map((f) => f.waitForLoadState("load")));
    text = await snapshot(h);
  });

  const frameLines = (all: string) => all.split("\n").filter((l) => /\[ref=f\d+e\d+\]/.test(l));

  it("the snapshot gives prefixed refs inside both frames", () => {
    expect(frameLines(text).filter((l) => l.includes('button "Frame button"'))).toHaveLength(2);
  });

  for (const [which, index] of [["same-origin", 0], ["cross-origin", 1]] as const) {
    it(`fills and clicks in the ${which} frame through its refs`, async () => {
      const fieldRef = frameLines(text).filter((l) => l.includes('textbox "Frame field"')).map((l) => refIn(l, "Frame field"))[index]!;
      const buttonRef = frameLines(text).filter((l) => l.includes('button "Frame button"')).map((l) => refIn(l, "Frame button"))[index]!;
      await ok(h, "fill", { ref: fieldRef, value: `hello ${which}` });
      await ok(h, "click", { ref: buttonRef });
      const state = await pageCall<{ status: string; field: string; frame: string }>(page, "frameState", index === 0 ? "same" : "cross");
      expect(state).toMatchObject({ status: `clicked hello ${which}`, field: `hello ${which}` });
      expect(state.frame).toBe(index === 0 ? h.server.origin : h.server.otherOrigin);
    });
  }

  it("a role selector from the top page reaches into the same-origin frame", async () => {
    await ok(h, "fill", { selector: { css: "#frame-field" }, value: "via selector" });
    expect(await pageCall(page, "frameState", "same")).toMatchObject({ field: "via selector" });
  });

  it("a covered iframe's content is not_actionable", async () => {
    await page.evaluate(() => {
      const cover = document.createElement("div");
      cover.id = "frame-cover";
      cover.className = "curtain";
      cover.style.cssText = "position:fixed;inset:0;background:rgba(0,0,0,.2)";
      document.body.append(cover);
    });
    const buttonRef = frameLines(text).filter((l) => l.includes('button "Frame button"')).map((l) => refIn(l, "Frame button"))[0]!;
    const result = await h.execute({ type: "click", params: { ref: buttonRef, timeout_ms: 200 } });
    expect(result).toMatchObject({ success: false, code: "not_actionable" });
    expect(result.error).toContain('covered by <div id="frame-cover" class="curtain">');
  });
});
