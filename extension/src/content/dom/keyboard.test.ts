import { describe, expect, it } from "vitest";
import { chordText, KeyParseError, parseChord } from "./keyboard.ts";

describe("parseChord", () => {
  it("parses named keys with their codes", () => {
    expect(parseChord("Enter")).toEqual({ modifiers: [], key: { key: "Enter", code: "Enter", keyCode: 13, text: "\r" } });
    expect(parseChord("Tab").key.code).toBe("Tab");
    expect(parseChord("esc").key.key).toBe("Escape");
    expect(parseChord("Space").key).toMatchObject({ key: " ", code: "Space" });
    expect(parseChord("F5").key).toMatchObject({ key: "F5", keyCode: 116 });
  });

  it("parses chords with modifiers and aliases", () => {
    expect(parseChord("Control+A")).toMatchObject({ modifiers: ["Control"], key: { key: "A", code: "KeyA", keyCode: 65 } });
    expect(parseChord("Shift+Tab")).toMatchObject({ modifiers: ["Shift"], key: { key: "Tab" } });
    expect(parseChord("ctrl+shift+ArrowLeft").modifiers).toEqual(["Control", "Shift"]);
    expect(parseChord("Cmd+k").modifiers).toEqual(["Meta"]);
  });

  it("handles the plus key itself", () => {
    expect(parseChord("+").key.key).toBe("+");
    expect(parseChord("Shift++")).toMatchObject({ modifiers: ["Shift"], key: { key: "+" } });
  });

  it("shifts lowercase letters like a keyboard", () => {
    expect(parseChord("Shift+a").key).toMatchObject({ key: "A", text: "A" });
  });

  it("rejects unknown keys and non-modifier prefixes", () => {
    expect(() => parseChord("")).toThrow(KeyParseError);
    expect(() => parseChord("Foo")).toThrow(/unknown key/);
    expect(() => parseChord("a+b")).toThrow(/not a modifier/);
    expect(() => parseChord("Control+")).toThrow(KeyParseError);
  });

  it("says which chords insert text", () => {
    expect(chordText(parseChord("a"))).toBe("a");
    expect(chordText(parseChord("Shift+a"))).toBe("A");
    expect(chordText(parseChord("Control+a"))).toBeUndefined();
    expect(chordText(parseChord("Enter"))).toBeUndefined();
    expect(chordText(parseChord("Space"))).toBe(" ");
  });
});
