import { describe, expect, it } from "vitest";
import { Serial } from "./serial.ts";

describe("Serial", () => {
  it("starts a step only after the one before it has settled, in the order given", async () => {
    const serial = new Serial();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = serial.run(async () => {
      log.push("first started");
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      log.push("first done");
    });
    const second = serial.run(async () => {
      log.push("second started");
    });
    // The first step holds; the second must not have started.
    await Promise.resolve();
    expect(log).toEqual(["first started"]);
    releaseFirst();
    await Promise.all([first, second]);
    expect(log).toEqual(["first started", "first done", "second started"]);
  });

  it("rejects the failed step's caller and still runs the steps behind it", async () => {
    const serial = new Serial();
    const failed = serial.run(() => Promise.reject(new Error("boom")));
    const after = serial.run(async () => 42);
    await expect(failed).rejects.toThrow("boom");
    await expect(after).resolves.toBe(42);
  });
});
