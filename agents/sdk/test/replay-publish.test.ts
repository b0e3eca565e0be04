import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { CrumbsClient, NatsPermissionError, type BreadcrumbEvent } from "@crumbs/agent-sdk";
import { startLockedStack, type TestStack } from "../../../services/api/test/stack.ts";

// The SDK's replay publish, as an owner with nothing but a token uses it on a locked nats-server
// (as `crumbs start` and docker compose run it): the owner's history goes, in seq order, into
// replay.<owner>.>, where that owner's agents receive it and the owner's REPLAY stream stores it
// once per msg id.

describe("client.publishReplay with the token alone on a locked NATS", () => {
  let s: TestStack;
  let url: string;
  let token: string;
  beforeAll(async () => {
    s = await startLockedStack();
    url = await s.serve();
    const res = await s.call("/v1/keys", { method: "POST", json: { owner: "rpl", scopes: ["read", "write", "subscribe"] } });
    token = ((await res.json()) as { token: string }).token;
  });
  afterAll(() => s?.dispose());

  it("an agent subscribed with subjectPrefix replay receives the owner's history in order; a second replay is stored once", async () => {
    const writer = new CrumbsClient({ url, token, env: {} });
    const agent = new CrumbsClient({ url, token, env: {} });
    try {
      const since = new Date(Date.now() - 1_000);
      const a = await writer.create({ schema_name: "test.replayed.v1", title: "a1", context: {} });
      await writer.patch(a.id, { title: "a2" }, { ifMatch: 1 });
      await writer.create({ schema_name: "test.replayed.v1", title: "b1", context: {} });

      const got: BreadcrumbEvent[] = [];
      const sub = await agent.subscribe({ schema_name: "test.replayed.v1" }, { subjectPrefix: "replay" });
      // A token-only client narrows the plain subscription to its owner: the only subjects its credentials may read.
      expect(sub.filterSubject).toBe("replay.rpl.*.test.replayed.v1");
      const loop = (async () => {
        for await (const d of sub) got.push(d.event);
      })();

      const first = await writer.publishReplay("replay", { schema_name: "test.replayed.v1" }, { since });
      expect(first).toEqual({ events: 3, jetstream: 3, duplicates: 0, core: 0 });
      await waitFor(() => got.length === 3, { timeout: 15_000, message: "the agent received the replay" });
      expect(got.map((e) => `${e.type}:${e.title}`)).toEqual(["breadcrumb.created:a1", "breadcrumb.updated:a2", "breadcrumb.created:b1"]);
      expect(got.map((e) => e.seq)).toEqual([...got.map((e) => e.seq)].sort((x, y) => x - y));

      // The same history again within the stream's duplicate window: the msg ids find it already there.
      const again = await writer.publishReplay("replay", { schema_name: "test.replayed.v1" }, { since });
      expect(again).toEqual({ events: 3, jetstream: 3, duplicates: 3, core: 0 });
      const jsm = await (await writer.nats()).jetstreamManager();
      expect((await jsm.streams.info("REPLAY")).state.messages).toBe(3);

      await sub.stop();
      await loop;
    } finally {
      await agent.close();
      await writer.close();
    }
  });

  it("a durable replay subscription reads the owner's REPLAY stream: each event once however often it is replayed, and what came while it was stopped", async () => {
    const writer = new CrumbsClient({ url, token, env: {} });
    const agent = new CrumbsClient({ url, token, env: {} });
    try {
      const since = new Date(Date.now() - 1_000);
      const schema = "test.durable.replay.v1";
      await writer.create({ schema_name: schema, title: "d1", context: {} });
      await writer.create({ schema_name: schema, title: "d2", context: {} });
      const opts = { subjectPrefix: "replay", durable: "replay-agent", deliver: "all" as const };
      const got: string[] = [];
      const run = async () => {
        const sub = await agent.subscribe({ schema_name: schema }, opts);
        const loop = (async () => {
          for await (const d of sub) got.push(d.event.breadcrumb.title);
        })();
        return { sub, loop };
      };
      const jsm = await (await agent.nats()).jetstreamManager();
      // Everything the durable will deliver was delivered and acked: the state to compare at.
      const drained = () =>
        waitFor(
          async () => {
            const c = await jsm.consumers.info("REPLAY", "replay-agent");
            return c.num_pending === 0 && c.num_ack_pending === 0;
          },
          { timeout: 15_000, message: "the replay durable drained" },
        );

      let { sub, loop } = await run();
      expect(sub.consumer).toBe("replay-agent");
      expect(sub.filterSubject).toBe(`replay.rpl.*.${schema}`);
      expect(await writer.publishReplay("replay", { schema_name: schema }, { since })).toMatchObject({ events: 2, duplicates: 0 });
      expect(await writer.publishReplay("replay", { schema_name: schema }, { since })).toMatchObject({ events: 2, duplicates: 2 });
      await waitFor(() => got.length >= 2, { timeout: 15_000, message: "the durable received the replay" });
      await drained();
      expect(got).toEqual(["d1", "d2"]);
      await sub.stop();
      await loop;

      // Replayed while no agent runs: the durable resumes with the new event only.
      await writer.create({ schema_name: schema, title: "d3", context: {} });
      expect(await writer.publishReplay("replay", { schema_name: schema }, { since })).toMatchObject({ events: 3, duplicates: 2 });
      ({ sub, loop } = await run());
      await waitFor(() => got.length >= 3, { timeout: 15_000, message: "the durable resumed" });
      await drained();
      expect(got).toEqual(["d1", "d2", "d3"]);
      await sub.stop();
      await loop;
    } finally {
      await agent.close();
      await writer.close();
    }
  });

  it("a durable replay subscription where no stream stores the subjects says so", async () => {
    const client = new CrumbsClient({ url, token, env: {} });
    try {
      const err = await client.subscribe({ schema_name: "test.x.v1" }, { subjectPrefix: "elsewhere", durable: "nowhere" }).catch((e: unknown) => e);
      expect((err as Error).message).toBe(
        "no JetStream stream stores elsewhere.rpl.*.test.x.v1: a durable subscription with subjectPrefix needs one " +
          "(an owner's REPLAY stream stores replay.<owner>.>), or subscribe without durable/queue for live publishes only",
      );
    } finally {
      await client.close();
    }
  });

  it("on crumbs.>, which only the API writes, the publish is refused with NatsPermissionError naming the fix", async () => {
    const client = new CrumbsClient({ url, token, env: {} });
    try {
      await client.create({ schema_name: "test.refused.v1", title: "r", context: {} });
      const err = await client.publishReplay("crumbs", { schema_name: "test.refused.v1" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NatsPermissionError);
      expect(err).toMatchObject({ operation: "publish", subject: "crumbs.rpl.created.test.refused.v1", retryable: false });
      expect((err as Error).message).toBe(
        'NATS refused these credentials to publish on crumbs.rpl.created.test.refused.v1 (Permissions Violation for Publish to "crumbs.rpl.created.test.refused.v1"): ' +
          "events are written through the API (client.create), never published on crumbs.>",
      );
      // The connection is still usable afterwards.
      expect((await client.publishReplay("replay", { schema_name: "test.refused.v1" })).events).toBe(1);
    } finally {
      await client.close();
    }
  });
});
