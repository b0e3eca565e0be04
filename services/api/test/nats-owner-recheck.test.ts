import { rm } from "node:fs/promises";
import { join } from "node:path";
import { AckPolicy, DeliverPolicy } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectWith, createOwnerKey, mintCreds, putNote } from "./owner-nats.ts";
import { startLockedStack, type TestStack } from "./stack.ts";

/**
 * The API checks an owner's NATS account and streams once, not at every mint (OwnerBus.ensureOwner),
 * and checks again when its connection to NATS dropped: a nats-server that comes back without the
 * accounts pushed to it (its resolver directory lost) gets the owner's account again at the next mint.
 */
describe("minting after NATS came back without the owner's account", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startLockedStack({ CRUMBS_RELAY_POLL_MS: "100" });
  });
  afterAll(() => stack?.dispose());

  it("pushes the account again, and the new credentials connect and receive the owner's events", async () => {
    const key = await createOwnerKey(stack, "recheck");
    const before = await connectWith(stack, await mintCreds(stack, key.token));
    await before.nc.close();
    // Minted again with nothing changed: served from what was checked.
    await connectWith(stack, await mintCreds(stack, key.token)).then((c) => c.nc.close());

    await stack.natsServer.stop();
    // The full resolver keeps pushed account JWTs here (lockedServerConfig): gone, as on a new volume.
    await rm(join(stack.natsServer.dir, "jwt"), { recursive: true, force: true });
    await stack.natsServer.start();
    // Asked at once: the API's system connection to NATS may still be reconnecting, and the push
    // waits for it (nats.js drops what is published meanwhile).

    const after = await connectWith(stack, await mintCreds(stack, key.token));
    try {
      const jsm = await after.nc.jetstreamManager();
      await jsm.consumers.add("CRUMBS", {
        durable_name: "recheck",
        filter_subject: "crumbs.*.created.note.v1",
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.New,
      });
      const written = await putNote(stack, key.token, "after the restart");
      const consumer = await after.nc.jetstream().consumers.get("CRUMBS", "recheck");
      const m = await consumer.next({ expires: 20_000 });
      expect(m?.json()).toMatchObject({ id: written.id, owner: "recheck" });
      m?.ack();
      expect(after.errors).toEqual([]);
    } finally {
      await after.nc.close();
    }
  });
});
