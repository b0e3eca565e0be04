import { describe, expect, it } from "vitest";
import { INTEREST_SCHEMA, INTEREST_TTL_SECONDS } from "@crumbs/schemas";
import { InterestLease } from "./interest-lease.ts";

// The lease's writes against a fake API: the renewal writes the next lease before it deletes the
// last, so there is never a moment without one; stop deletes it.

function fakeApi() {
  const live = new Set<string>();
  const log: string[] = [];
  let n = 0;
  let minLive = Infinity;
  return {
    live,
    log,
    minLive: () => minLive,
    async create(body: { schema_name: string; ttl_seconds?: number; context: unknown }) {
      const id = `l${++n}`;
      live.add(id);
      log.push(`create ${id} ${body.schema_name} ttl=${body.ttl_seconds} ${JSON.stringify(body.context)}`);
      return { id } as never;
    },
    async delete(id: string) {
      live.delete(id);
      minLive = Math.min(minLive, live.size);
      log.push(`delete ${id}`);
    },
  };
}

function manualTimers() {
  const pending: Array<() => void> = [];
  return { pending, set: (fn: () => void) => pending.push(fn), clear: () => pending.splice(0) };
}

describe("InterestLease", () => {
  it("writes a lease with the contract's TTL, renews make-before-break, relabels, and deletes it on stop", async () => {
    const api = fakeApi();
    const timers = manualTimers();
    const lease = new InterestLease(api, { holder: { id: "sdk:1", label: "sdk: a" }, timers });
    await lease.start();
    expect(api.log).toEqual([`create l1 ${INTEREST_SCHEMA} ttl=${INTEREST_TTL_SECONDS} {"holder":{"id":"sdk:1","label":"sdk: a"}}`]);
    timers.pending.shift()!();
    await lease.relabel("sdk: b");
    expect(api.log.slice(1)).toEqual([expect.stringMatching(/^create l2 /), "delete l1", expect.stringContaining('"label":"sdk: b"'), "delete l2"]);
    expect(api.minLive()).toBe(1);
    await lease.stop();
    expect(api.live.size).toBe(0);
    expect(timers.pending).toEqual([]);
  });

  it("a failed renewal keeps the last lease and reports; the next one tries again", async () => {
    const api = fakeApi();
    const timers = manualTimers();
    const errors: unknown[] = [];
    const lease = new InterestLease(api, { holder: { id: "sdk:1", label: "sdk: a" }, timers, onError: (e) => errors.push(e) });
    await lease.start();
    const create = api.create;
    api.create = async () => {
      throw new Error("API away");
    };
    await lease.relabel("sdk: b");
    expect(errors).toHaveLength(1);
    expect([...api.live]).toEqual(["l1"]);
    api.create = create;
    await lease.relabel("sdk: c");
    expect([...api.live]).toEqual(["l2"]);
    await lease.stop();
  });
});
