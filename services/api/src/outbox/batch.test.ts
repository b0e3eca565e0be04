import { describe, expect, it } from "vitest";
import { splitBatch } from "./batch.ts";
import { outboxRow as row, UNSENDABLE as unsendable } from "./outbox-rows.fixture.ts";

describe("splitBatch", () => {
  it("sends every row in order when nothing is parked", () => {
    const { send, parked } = splitBatch([row(1, "a"), row(2, "b"), row(3, "a")], new Map(), 64 * 1024);
    expect(send.map((m) => [m.row.seq, m.owner])).toEqual([["1", "a"], ["2", "b"], ["3", "a"]]);
    expect(parked).toEqual([]);
  });

  it("holds an owner's rows behind its parked seq, and only later ones", () => {
    const { send, parked } = splitBatch([row(4, "a"), row(6, "a"), row(7, "b")], new Map([["a", 5]]), 64 * 1024);
    expect(send.map((m) => m.row.seq)).toEqual(["4", "7"]);
    expect(parked.map((p) => [p.row.seq, p.reason])).toEqual([["6", "held behind parked seq 5 of owner a"]]);
  });

  it("parks a row nothing fits max_payload for, then holds that owner's later rows of the batch", () => {
    const { send, parked } = splitBatch([row(1, "a", unsendable), row(2, "a"), row(3, "b")], new Map(), 1_500);
    expect(send.map((m) => m.row.seq)).toEqual(["3"]);
    expect(parked.map((p) => p.row.seq)).toEqual(["1", "2"]);
    expect(parked[1]!.reason).toBe("held behind parked seq 1 of owner a");
  });

  it("does not change the map it is given", () => {
    const held = new Map<string, number>();
    splitBatch([row(1, "a", unsendable)], held, 1_500);
    expect(held.size).toBe(0);
  });
});
