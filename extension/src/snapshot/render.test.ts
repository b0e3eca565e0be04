import { describe, expect, it } from "vitest";
import { renderSnapshot } from "./snapshot.ts";
import type { VirtualNode } from "./virtual-node.ts";

const body = (...children: VirtualNode[]): VirtualNode => ({ role: "generic", tag: "body", children });

describe("render", () => {
  it("prints the contract's line forms", () => {
    const { text, refs } = renderSnapshot(
      body(
        { role: "button", name: "Submit", ref: "e12" },
        { role: "textbox", name: "Email", ref: "e3", value: "current value" },
        { role: "link", name: "Docs", ref: "e7", href: "/docs" },
        { role: "heading", name: "Pricing", states: { level: 2 } },
        { role: "checkbox", name: "Remember me", ref: "e9", states: { checked: true } },
        { role: "text", text: "Some   words\n here" },
      ),
    );
    expect(text).toBe(
      [
        '- button "Submit" [ref=e12]',
        '- textbox "Email" [ref=e3]: current value',
        '- link "Docs" [ref=e7] -> /docs',
        '- heading "Pricing" [level=2]',
        '- checkbox "Remember me" [ref=e9] [checked]',
        "- text: Some words here",
      ].join("\n"),
    );
    expect(refs).toBe(4);
  });

  it("indents two spaces a level and flattens unnamed generic containers", () => {
    const { text } = renderSnapshot(
      body({
        role: "navigation",
        children: [{ role: "generic", children: [{ role: "link", name: "Home", ref: "e1", href: "/" }] }],
      }),
    );
    expect(text).toBe('- navigation\n  - link "Home" [ref=e1] -> /');
  });

  it("puts a lone text child after the colon and merges adjacent text runs", () => {
    const { text } = renderSnapshot(
      body(
        { role: "listitem", children: [{ role: "text", text: "Apple" }] },
        { role: "paragraph", children: [{ role: "text", text: "Hello" }, { role: "generic", children: [{ role: "text", text: "world" }] }, { role: "text", text: "!" }] },
      ),
    );
    expect(text).toBe("- listitem: Apple\n- paragraph: Hello world!");
  });

  it("drops text children that only repeat a name from content", () => {
    const { text } = renderSnapshot(body({ role: "heading", name: "Pricing", states: { level: 1 }, children: [{ role: "text", text: "Pricing" }] }));
    expect(text).toBe('- heading "Pricing" [level=1]');
  });

  it("prints no name on a row whose name from content was cut at its length limit: its cells say it", () => {
    const words = "Dana Whitfield Offsite agenda and travel - Here is the plan for the offsite in Lisbon: arrive Tuesday, workshops Wednesday, dinner by the river, flights back on Friday morning. 10-27";
    const row = (name: string): VirtualNode => ({
      role: "row",
      name,
      ref: "e1",
      children: [{ role: "button", name: "Not starred", ref: "e2" }, { role: "text", text: words }, { role: "button", name: "Archive", ref: "e3" }],
    });
    const full = `Not starred ${words} Archive`;
    expect(full.length).toBeGreaterThan(200);
    const cut = `${full.slice(0, 199)}…`;
    expect(renderSnapshot(body(row(cut))).text.split("\n")[0]).toBe("- row [ref=e1]");
    // A cut name that is not the start of what the cells say is the row's own: it stays.
    expect(renderSnapshot(body(row(`Important ${cut}`))).text.split("\n")[0]).toMatch(/^- row "Important Not starred/);
  });

  it("escapes quotes in names, prints states in a fixed order and boxes on request", () => {
    const node: VirtualNode = {
      role: "button",
      name: 'Say "hi"',
      ref: "e1",
      states: { required: true, disabled: true, expanded: false, pressed: "mixed" },
      box: { x: 1.4, y: 2.6, width: 30, height: 10 },
    };
    expect(renderSnapshot(body(node)).text).toBe('- button "Say \\"hi\\"" [ref=e1] [disabled] [expanded=false] [pressed=mixed] [required]');
    expect(renderSnapshot(body(node), { include_boxes: true }).text).toContain("[box=1,3,30,10]");
  });

  it("gives the JSON form of exactly what was printed", () => {
    const { tree } = renderSnapshot(body({ role: "list", children: [{ role: "generic", children: [{ role: "link", name: "A", ref: "e1" }] }] }), {
      format: "json",
    });
    expect(tree).toEqual([{ role: "list", children: [{ role: "link", name: "A", ref: "e1" }] }]);
  });
});
