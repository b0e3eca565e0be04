import { describe, expect, it } from "vitest";
import { OwnerReads, type ReadTicket } from "./owner-reads.ts";

const MiB = 1024 * 1024;

describe("OwnerReads", () => {
  const granted = (r: ReturnType<OwnerReads["request"]>): ReadTicket => {
    expect(r.kind).toBe("granted");
    return (r as { ticket: ReadTicket }).ticket;
  };

  it("queues an owner's third read behind its own two, and never another owner's", () => {
    const s = new OwnerReads({ reads: 2, bytes: 8 * MiB });
    const a1 = granted(s.request("hostile", 4 * MiB, 10));
    granted(s.request("hostile", 4 * MiB, 10));
    const a3 = s.request("hostile", 4 * MiB, 10);
    expect(a3.kind).toBe("queued");
    // The calm owner is not behind the hostile one's queue.
    granted(s.request("calm", 4 * MiB, 10));
    expect(s.release(a1)).toEqual([(a3 as { ticket: ReadTicket }).ticket]);
    expect(s.usage("hostile")).toEqual({ reads: 2, bytes: 8 * MiB, waiting: 0 });
  });

  it("limits the bytes the running reads hold, not only their number", () => {
    const s = new OwnerReads({ reads: 4, bytes: 8 * MiB });
    granted(s.request("o", 6 * MiB, 10));
    expect(s.request("o", 4 * MiB, 10).kind).toBe("queued");
  });

  it("lets a read asking for more than the whole share run alone", () => {
    const s = new OwnerReads({ reads: 2, bytes: 8 * MiB });
    const t = granted(s.request("o", 64 * MiB, 10));
    expect(t.bytes).toBe(8 * MiB);
  });

  it("refuses past the queue bound and serves the queue in order", () => {
    const s = new OwnerReads({ reads: 1, bytes: 8 * MiB });
    const first = granted(s.request("o", 1, 2));
    const q1 = s.request("o", 1, 2);
    const q2 = s.request("o", 1, 2);
    expect(s.request("o", 1, 2)).toEqual({ kind: "refused", waiting: 2 });
    expect(s.release(first)).toEqual([(q1 as { ticket: ReadTicket }).ticket]);
    expect(s.withdraw((q2 as { ticket: ReadTicket }).ticket)).toBe(true);
    expect(s.usage("o")).toEqual({ reads: 1, bytes: 1, waiting: 0 });
  });

  it("keeps nothing for an owner with no read running or waiting", () => {
    const s = new OwnerReads({ reads: 1, bytes: MiB });
    s.release(granted(s.request("o", 1, 1)));
    expect(s.usage("o")).toEqual({ reads: 0, bytes: 0, waiting: 0 });
    expect((s as unknown as { owners: Map<string, unknown> }).owners.size).toBe(0);
  });
});
