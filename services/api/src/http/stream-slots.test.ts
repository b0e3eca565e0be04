import { describe, expect, it } from "vitest";
import { StreamSlots, TooManyStreamsError } from "./stream-slots.ts";

describe("StreamSlots", () => {
  it("caps open streams per key, frees a slot once on release, and keeps keys apart", () => {
    const slots = new StreamSlots(2);
    const a1 = slots.acquire("a");
    slots.acquire("a");
    expect(() => slots.acquire("a")).toThrow(TooManyStreamsError);
    expect(() => slots.acquire("b")).not.toThrow();
    a1();
    a1();
    expect(slots.count("a")).toBe(1);
    expect(() => slots.acquire("a")).not.toThrow();
    expect(() => slots.acquire("a")).toThrow(/already has 2 open event streams/);
  });
});
