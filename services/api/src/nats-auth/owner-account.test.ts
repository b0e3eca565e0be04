import { describe, expect, it } from "vitest";
import { OWNER_LIMITS, OWNER_STREAMS, ownerAccountJwt } from "./owner-account.ts";
import { createNatsTrust } from "./trust.ts";

const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8")) as {
    nats: { limits: { disk_storage: number; mem_storage: number; disk_max_stream_bytes: number } };
  };

describe("an owner's account", () => {
  const trust = createNatsTrust();
  const account = (replicas?: number) =>
    claimsOf(ownerAccountJwt({ trust, accountSeed: trust.accountSeed, owner: "alice", revocations: {}, now: new Date(0), ...(replicas ? { replicas } : {}) }).jwt).nats.limits;

  it("holds the owner's two streams once per copy the cluster keeps of them", () => {
    const both = OWNER_STREAMS.events.maxBytes + OWNER_STREAMS.replay.maxBytes;
    expect(account().disk_storage).toBe(OWNER_LIMITS.diskBytes);
    expect(account().disk_storage).toBeGreaterThanOrEqual(both);
    // JetStream reserves max_bytes once per replica: at 3 replicas both streams need 3x.
    expect(account(3).disk_storage).toBe(3 * OWNER_LIMITS.diskBytes);
    expect(account(3).disk_storage).toBeGreaterThanOrEqual(3 * both);
    expect(account(3).mem_storage).toBe(3 * OWNER_LIMITS.memBytes);
    // A single stream stays bounded the same however many copies there are.
    expect(account(3).disk_max_stream_bytes).toBe(OWNER_LIMITS.streamBytes);
  });
});
