import { describe, expect, it } from "vitest";
import { INTEREST_SCHEMA, INTEREST_TTL_SECONDS } from "@crumbs/schemas";
import { InterestLease } from "./interest-lease.ts";

// The lease's writes against a fake API that keeps versions: a renewal extends the lease in place
// (one PATCH of ttl_seconds), a relabel also sends the new context, a lease gone by the renewal is
// written anew, and stop deletes it.

const httpError = (status: number) => Object.assign(new Error(`status ${status}`), { status });

function fakeApi() {
  const live = new Map<string, number>();
  const log: string[] = [];
  let n = 0;
  return {
    live,
    log,
    async create(body: { schema_name: string; ttl_seconds?: number; context: unknown }) {
      const id = `l${++n}`;
      live.set(id, 1);
      log.push(`create ${id} ${body.schema_name} ttl=${body.ttl_seconds} ${JSON.stringify(body.context)}`);
      return { id, version: 1 } as never;
    },
    async patch(id: string, body: Record<string, unknown>, opts: { ifMatch: number }) {
      const version = live.get(id);
      if (version === undefined) throw httpError(404);
      if (version !== opts.ifMatch) throw httpError(412);
      live.set(id, version + 1);
      log.push(`patch ${id} v${version} ${JSON.stringify(body)}`);
      return { id, version: version + 1 } as never;
    },
    async delete(id: string) {
      if (!live.delete(id)) throw httpError(404);
      log.push(`delete ${id}`);
    },
  };
}

function manualTimers() {
  const pending: Array<() => void> = [];
  return { pending, set: (fn: () => void) => pending.push(fn), clear: () => pending.splice(0) };
}

describe("InterestLease", () => {
  it("writes a lease with the contract's TTL, renews it in place with one PATCH, relabels, and deletes it on stop", async () => {
    const api = fakeApi();
    const timers = manualTimers();
    const lease = new InterestLease(api, { holder: { id: "sdk:1", label: "sdk: a" }, timers });
    await lease.start();
    expect(api.log).toEqual([`create l1 ${INTEREST_SCHEMA} ttl=${INTEREST_TTL_SECONDS} {"holder":{"id":"sdk:1","label":"sdk: a"}}`]);
    // A renewal falls due and a relabel comes right behind it: the writes run in order, the first
    // already with the new label (it reads the label when it runs), the second a plain renewal.
    timers.pending.shift()!();
    await lease.relabel("sdk: b");
    expect(api.log.slice(1)).toEqual([
      `patch l1 v1 {"title":"Page context wanted by sdk: b","context":{"holder":{"id":"sdk:1","label":"sdk: b"}},"ttl_seconds":${INTEREST_TTL_SECONDS}}`,
      `patch l1 v2 {"ttl_seconds":${INTEREST_TTL_SECONDS}}`,
    ]);
    expect(lease.leaseId).toBe("l1");
    await lease.stop();
    expect(api.log.at(-1)).toBe("delete l1");
    expect(api.live.size).toBe(0);
    expect(timers.pending).toEqual([]);
  });

  it("a lease gone by its renewal (expired, deleted by hand) is written anew", async () => {
    const api = fakeApi();
    const timers = manualTimers();
    const errors: unknown[] = [];
    const lease = new InterestLease(api, { holder: { id: "sdk:1", label: "sdk: a" }, timers, onError: (e) => errors.push(e) });
    await lease.start();
    api.live.delete("l1"); // the sweeper deleted it while the holder was away
    await lease.relabel("sdk: b");
    expect([...api.live.keys()]).toEqual(["l2"]);
    expect(lease.leaseId).toBe("l2");
    expect(api.log.at(-1)).toContain('"label":"sdk: b"');
    expect(errors).toEqual([]);
    await lease.stop();
    expect(api.live.size).toBe(0);
  });

  it("a failed renewal keeps the last lease and reports; the next one tries again", async () => {
    const api = fakeApi();
    const timers = manualTimers();
    const errors: unknown[] = [];
    const lease = new InterestLease(api, { holder: { id: "sdk:1", label: "sdk: a" }, timers, onError: (e) => errors.push(e) });
    await lease.start();
    const patch = api.patch;
    api.patch = async () => {
      throw httpError(503);
    };
    await lease.relabel("sdk: b");
    expect(errors).toHaveLength(1);
    expect([...api.live]).toEqual([["l1", 1]]);
    api.patch = patch;
    await lease.relabel("sdk: c");
    expect([...api.live]).toEqual([["l1", 2]]);
    expect(api.log.at(-1)).toContain('"label":"sdk: c"');
    await lease.stop();
  });
});
