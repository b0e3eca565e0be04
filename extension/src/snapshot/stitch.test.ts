import { describe, expect, it } from "vitest";
import { framePlaceholders, matchFrames, parseRef, prefixRefs, stitchFrames } from "./stitch.ts";
import type { VirtualNode } from "./virtual-node.ts";

describe("frame refs and stitching", () => {
  it("parses top-frame and frame refs and rejects anything else", () => {
    expect(parseRef("e12")).toEqual({ frameId: 0, local: "e12" });
    expect(parseRef("f7e3")).toEqual({ frameId: 7, local: "e3" });
    expect(parseRef("x1")).toBeUndefined();
    expect(parseRef("f7")).toBeUndefined();
    expect(parseRef("e1 ")).toBeUndefined();
  });

  it("prefixes every ref of a frame's subtree", () => {
    const sub: VirtualNode = { role: "generic", children: [{ role: "button", ref: "e1" }, { role: "text", text: "x" }] };
    expect(prefixRefs(sub, 5).children?.[0]?.ref).toBe("f5e1");
  });

  it("matches placeholders by probe token first, then by a unique URL", () => {
    const placeholders = [
      { token: "d:1", src: "http://a/x" },
      { token: "d:2", src: "http://b/y" },
      { token: "d:3", src: "http://a/x" },
    ];
    const matched = matchFrames(placeholders, [
      { frameId: 4, probe: "d:3", url: "http://a/x" },
      { frameId: 5, url: "http://b/y" },
      { frameId: 6, url: "http://a/x" },
    ]);
    expect(Object.fromEntries(matched)).toEqual({ "d:3": 4, "d:2": 5, "d:1": 6 });
  });

  it("puts each subtree under its placeholder and says when a frame did not answer", () => {
    const tree: VirtualNode = {
      role: "generic",
      children: [
        { role: "iframe", vp: 300, frame: { token: "t1" } },
        { role: "iframe", frame: { token: "t2" } },
      ],
    };
    expect(framePlaceholders(tree).map((p) => p.token)).toEqual(["t1", "t2"]);
    const out = stitchFrames(
      tree,
      new Map<string, VirtualNode | string>([
        ["t1", { role: "generic", children: [{ role: "button", ref: "f3e1", vp: 0 }] }],
        ["t2", "timeout"],
      ]),
    );
    expect(out.children?.[0]?.children).toEqual([{ role: "button", ref: "f3e1", vp: 300 }]);
    expect(out.children?.[1]?.children?.[0]?.text).toContain("timeout");
    expect(framePlaceholders(out)).toEqual([]);
  });
});
