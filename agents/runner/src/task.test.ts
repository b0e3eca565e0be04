import { describe, expect, it } from "vitest";
import { outputKey, resultText } from "./task.ts";

describe("outputKey", () => {
  const root = { id: "b1", version: 3 };

  it("gives the first output exactly the contract's <agent_id>:<id>:<version>", () => {
    expect(outputKey("helper", root, 1, 0)).toBe("helper:b1:3");
  });

  it("keeps every other output of a task distinct", () => {
    const keys = [outputKey("helper", root, 1, 0), outputKey("helper", root, 1, 1), outputKey("helper", root, 2, 0), outputKey("helper", root, 2, 1)];
    expect(new Set(keys).size).toBe(4);
    expect(keys.slice(1)).toEqual(["helper:b1:3:1", "helper:b1:3:s2:0", "helper:b1:3:s2:1"]);
  });
});

describe("resultText", () => {
  it("a capture's images are named, not pasted, into the model's tool message", () => {
    const image = `data:image/jpeg;base64,${"A".repeat(50_000)}`;
    const text = resultText({ status: "ok", data: { frame: { data_url: image, width: 800 }, boxes: [{ ref: "e3" }] } });
    expect(text.length).toBeLessThan(300);
    expect(JSON.parse(text)).toMatchObject({ data: { frame: { data_url: "[image, 50023 characters, not shown as text]", width: 800 }, boxes: [{ ref: "e3" }] } });
  });
});
