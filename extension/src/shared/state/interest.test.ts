import { describe, expect, it } from "vitest";
import { interestLine, liveLabels, nextEnd, pruned, type InterestState } from "./interest.ts";

const state: InterestState = {
  leases: {
    a: { holder_id: "runner:1", label: "runner: 2 agents", until: 1_000 },
    // The same holder's next lease, written before the last one is deleted: one label.
    b: { holder_id: "runner:1", label: "runner: 2 agents", until: 1_020 },
    c: { holder_id: "sdk:9", label: "sdk: my-agent", until: 500 },
  },
};

describe("interest state", () => {
  it("lists each live holder once, and none once every lease has ended", () => {
    expect(liveLabels(state, 400)).toEqual(["runner: 2 agents", "sdk: my-agent"]);
    expect(liveLabels(state, 500)).toEqual(["runner: 2 agents"]);
    expect(liveLabels(state, 1_020)).toEqual([]);
  });
  it("the next end is the earliest live one", () => {
    expect(nextEnd(state, 400)).toBe(500);
    expect(nextEnd(state, 500)).toBe(1_000);
    expect(nextEnd(state, 2_000)).toBeUndefined();
  });
  it("pruning drops the ended leases only", () => {
    expect(Object.keys(pruned(state, 600).leases)).toEqual(["a", "b"]);
  });
  it("the side panel's words", () => {
    expect(interestLine(["runner: 1 agent", "sdk: x"])).toBe("shared with runner: 1 agent, sdk: x");
    expect(interestLine([])).toBe("paused — no agent is listening");
  });
});
