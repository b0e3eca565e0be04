import { describe, expect, it } from "vitest";
import { PublishError } from "../nats/publisher.ts";
import { HEADER_ALLOWANCE_BYTES, isPermanentPublishError, prepareMessage } from "./prepare.ts";

const event = (blob: string, tags: string[] = ["t"]) => ({
  seq: 7,
  type: "breadcrumb.created",
  id: "7b7f1f0e-3f5a-4c1e-9a55-1d6c2c7f0a11",
  owner: "alice",
  schema_name: "note.v1",
  title: "t",
  tags,
  version: 1,
  at: "2025-01-15T10:30:00.000Z",
  breadcrumb: { context: { blob } },
});
const row = (payload: unknown, subject = "crumbs.alice.created.note.v1") => ({ subject, msg_id: "id:1:created", payload: JSON.stringify(payload) });
const decode = (d: Uint8Array) => JSON.parse(new TextDecoder().decode(d)) as Record<string, unknown>;

describe("prepareMessage", () => {
  const max = 8 * 1024;

  it("sends an event that fits as it is", () => {
    const p = prepareMessage(row(event("x".repeat(100))), max);
    expect(p.kind).toBe("full");
    expect(p.owner).toBe("alice");
  });

  it("sends a reference event, breadcrumb left out, when only that fits", () => {
    const p = prepareMessage(row(event("x".repeat(max))), max);
    if (p.kind !== "reference") throw new Error(`expected a reference, got ${p.kind}`);
    const { breadcrumb: _b, ...rest } = event("");
    expect(decode(p.data)).toEqual({ ...rest, truncated: true });
    expect(p.data.length).toBeLessThanOrEqual(max - HEADER_ALLOWANCE_BYTES);
  });

  it("parks a row when even the reference does not fit, naming the sizes", () => {
    const p = prepareMessage(row(event("x".repeat(max), Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(200, "y")))), max);
    expect(p.kind).toBe("park");
    if (p.kind === "park") expect(p.reason).toMatch(/reference event of \d+ bytes exceed max_payload 8192/);
  });

  it("sends the stored text byte for byte, and parks an oversized row that is not a JSON object", () => {
    const text = '{"seq": 7, "id": "x",  "note": "jsonb renders spaces"}';
    const p = prepareMessage({ subject: "crumbs.alice.created.note.v1", msg_id: "id:1:created", payload: text }, max);
    if (p.kind !== "full") throw new Error(`expected full, got ${p.kind}`);
    expect(new TextDecoder().decode(p.data)).toBe(text);
    for (const payload of [JSON.stringify("z".repeat(max)), `{"cut": "${"z".repeat(max)}`]) {
      const q = prepareMessage({ subject: "crumbs.alice.created.note.v1", msg_id: "id:1:created", payload }, max);
      expect(q).toEqual({ kind: "park", owner: "alice", reason: expect.stringMatching(/exceeds max_payload 8192/) });
    }
  });

  it("parks a row with an invalid subject under the owner token it names", () => {
    const p = prepareMessage(row(event(""), "crumbs.bob.created.Not A Schema"), max);
    expect(p).toEqual({ kind: "park", owner: "bob", reason: expect.stringMatching(/invalid subject/) });
  });
});

describe("isPermanentPublishError", () => {
  it("tells what retrying cannot fix from what it can", () => {
    expect(isPermanentPublishError({ code: "MAX_PAYLOAD_EXCEEDED" })).toBe(true);
    expect(isPermanentPublishError({ code: "BAD_SUBJECT" })).toBe(true);
    expect(isPermanentPublishError(new PublishError("REFUSED", "message size exceeds maximum allowed", 10054))).toBe(true);
    expect(isPermanentPublishError(new PublishError("REFUSED", "wrong last msg ID", 10070))).toBe(false);
    expect(isPermanentPublishError(new PublishError("TIMEOUT", "no ack"))).toBe(false);
    expect(isPermanentPublishError(new PublishError("NO_RESPONDERS", "no stream"))).toBe(false);
    expect(isPermanentPublishError(new Error("boom"))).toBe(false);
  });
});
