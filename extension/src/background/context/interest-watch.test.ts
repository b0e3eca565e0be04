import { describe, expect, it } from "vitest";
import { interestLeaseBody } from "@crumbs/schemas/interest";
import { leaseOf } from "./interest-watch.ts";

const holder = { id: "runner:1", label: "runner: 1 agent" };
const written = (target?: { extension_id?: string }, expires = "2030-01-01T00:01:00.000Z") => ({
  context: interestLeaseBody(holder, target).context,
  updated_at: "2030-01-01T00:00:00.000Z",
  expires_at: expires,
});

describe("leaseOf", () => {
  it("ends a lease after the lifetime the API gave it, counted on this browser's clock", () => {
    // The browser's clock is years off the server's: the lease still lives its 60 s.
    expect(leaseOf(written(), "ext", 5_000)).toEqual({ holder_id: "runner:1", label: "runner: 1 agent", until: 65_000 });
  });
  it("takes a lease for this extension or any, not one for another", () => {
    expect(leaseOf(written({ extension_id: "ext" }), "ext", 0)).toBeDefined();
    expect(leaseOf(written({ extension_id: "other" }), "ext", 0)).toBeUndefined();
  });
  it("ignores a breadcrumb without an expiry or without a holder", () => {
    expect(leaseOf({ context: written().context, updated_at: "2030-01-01T00:00:00.000Z" }, "ext", 0)).toBeUndefined();
    expect(leaseOf({ ...written(), context: { target: {} } }, "ext", 0)).toBeUndefined();
  });
});
