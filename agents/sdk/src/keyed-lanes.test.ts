import { describe, expect, it } from "vitest";
import { KeyedLanes } from "./keyed-lanes.ts";

/** A task the test finishes by hand, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    task: async () => {
      log.push(`start ${name}`);
      await opened;
      log.push(`end ${name}`);
    },
    open,
  };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("KeyedLanes", () => {
  it("runs tasks of different keys at once and tasks of one key in order", async () => {
    const log: string[] = [];
    const lanes = new KeyedLanes(4);
    const a1 = gate(log, "a1");
    const a2 = gate(log, "a2");
    const b1 = gate(log, "b1");
    const done = [lanes.run("a", a1.task), lanes.run("a", a2.task), lanes.run("b", b1.task)];
    await settle();
    expect(log).toEqual(["start a1", "start b1"]);
    b1.open();
    a1.open();
    await settle();
    expect(log).toEqual(["start a1", "start b1", "end b1", "end a1", "start a2"]);
    a2.open();
    await Promise.all(done);
    expect(log.at(-1)).toBe("end a2");
  });

  it("has room only while fewer than the limit are given, waiting ones included", async () => {
    const lanes = new KeyedLanes(2);
    const log: string[] = [];
    const a1 = gate(log, "a1");
    void lanes.run("a", a1.task);
    void lanes.run("a", gate(log, "a2").task);
    let room = false;
    void lanes.room().then(() => (room = true));
    await settle();
    expect(room).toBe(false);
    a1.open();
    await lanes.room();
    expect(room).toBe(true);
    await settle();
    expect(log).toEqual(["start a1", "end a1", "start a2"]);
  });

  it("goes on with a key after one of its tasks fails, and passes the failure to the caller", async () => {
    const lanes = new KeyedLanes(1);
    const failed = lanes.run("a", () => Promise.reject(new Error("boom")));
    const next = lanes.run("a", () => Promise.resolve());
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBeUndefined();
    await lanes.room();
  });

  it("refuses a limit below one", () => {
    expect(() => new KeyedLanes(0)).toThrow(RangeError);
  });
});
