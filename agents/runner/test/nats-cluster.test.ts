import { AckPolicy, connect, DeliverPolicy, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrumbsClient } from "@crumbs/agent-sdk";
import { agentConsumerPrefix, STREAM_NAME, subjectFor } from "@crumbs/schemas";
import { createTestDatabase, FakeOpenAI, freePort, NatsCluster, waitFor, waitForConsumerDrained, type TestDatabase } from "@crumbs/testkit";
import { chatMessage, listAll, spawnCrumbs, type Proc } from "./stack.ts";

// The scale-out shape of docs/scaling.md, all real: three nats-server processes routed into one
// cluster, the CRUMBS stream with 3 replicas, two `crumbs api` processes on one Postgres
// database and two `crumbs runner` processes on one agent. The stream's leader is killed in the
// middle of a steady write load.
const TOKEN = "test-token-cluster-0001";
const WRITES = 240;
const KILL_AT = 80;
const OWNER = "default";


/** Every message stored on a subject, read from the start with an ephemeral consumer. */
async function storedIds(nc: NatsConnection, subject: string): Promise<string[]> {
  const jsm = await nc.jetstreamManager();
  const js = nc.jetstream();
  const info = await jsm.consumers.add(STREAM_NAME, {
    filter_subject: subject,
    deliver_policy: DeliverPolicy.All,
    ack_policy: AckPolicy.None,
    inactive_threshold: 30_000_000_000,
  });
  const consumer = await js.consumers.get(STREAM_NAME, info.name);
  const ids: string[] = [];
  let pending = info.num_pending;
  while (pending > 0) {
    const batch = await consumer.fetch({ max_messages: Math.min(pending, 500), expires: 2_000 });
    let got = 0;
    for await (const m of batch) {
      ids.push((m.json() as { id: string }).id);
      got++;
    }
    if (got === 0) break;
    pending -= got;
  }
  await jsm.consumers.delete(STREAM_NAME, info.name).catch(() => {});
  return ids;
}

describe("a 3-node NATS cluster, 2 API processes and 2 runner processes", () => {
  let cluster: NatsCluster;
  let db: TestDatabase;
  let fake: FakeOpenAI;
  let client: CrumbsClient;
  let observer: NatsConnection;
  const procs: Proc[] = [];
  const apiUrls: string[] = [];

  beforeAll(async () => {
    [cluster, db, fake] = await Promise.all([NatsCluster.start({ size: 3 }), createTestDatabase("crumbs_cluster"), FakeOpenAI.start()]);
    const common = { DATABASE_URL: db.url, NATS_URL: cluster.url, CRUMBS_TOKEN: TOKEN, HOST: "127.0.0.1" };
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const api = spawnCrumbs(["api"], { ...common, PORT: String(port), CRUMBS_STREAM_REPLICAS: "3", CRUMBS_RELAY_POLL_MS: "50" });
      procs.push(api);
      apiUrls.push(`http://127.0.0.1:${port}`);
      await waitFor(() => api.output.join("").includes("listening on"), { timeout: 30_000, message: `API ${i + 1} up` });
    }
    client = new CrumbsClient({ url: apiUrls[0]!, token: TOKEN, natsUrl: cluster.url });
    await client.create({
      schema_name: "agent.def.v1",
      title: "cluster agent",
      tags: [],
      context: {
        agent_id: "cluster",
        model: "test-model",
        system_prompt: "answer briefly",
        subscriptions: { selectors: [{ schema_name: "chat.message.v1", any_tags: ["user:message"] }] },
        capabilities: {},
      },
    });
    fake.setScript({ kind: "text", content: "ok" });
    for (const url of apiUrls) {
      const runner = spawnCrumbs(["runner"], {
        CRUMBS_URL: url,
        CRUMBS_TOKEN: TOKEN,
        NATS_URL: cluster.url,
        OPENAI_BASE_URL: fake.url,
        RUNNER_ACK_WAIT_MS: "3000",
      });
      procs.push(runner);
      await waitFor(() => runner.output.join("").includes("agent running"), { timeout: 30_000, message: "runner up" });
    }
    observer = await connect({ servers: cluster.url.split(",") });
  }, 120_000);

  afterAll(async () => {
    for (const p of procs) if (p.exitCode === null) p.kill("SIGKILL");
    await client?.close().catch(() => {});
    await observer?.close().catch(() => {});
    await fake?.close().catch(() => {});
    await cluster?.dispose();
    await db?.drop().catch(() => {});
  });

  it("stores every write's event exactly once and answers every trigger once when the stream leader is killed under load", async () => {
    const jsm = await observer.jetstreamManager();
    const stream = await jsm.streams.info(STREAM_NAME);
    expect(stream.config.num_replicas).toBe(3);
    const leader = stream.cluster?.leader;
    expect(leader).toMatch(/^n[123]$/);

    // A steady load through both APIs, 25 writes at a time; the leader dies a third of the way in.
    const writers = apiUrls.map((url) => new CrumbsClient({ url, token: TOKEN }));
    const ids: string[] = [];
    let killedAt = 0;
    for (let i = 0; i < WRITES; i += 20) {
      if (i >= KILL_AT && !killedAt) {
        killedAt = Date.now();
        await cluster.stop(Number(leader!.slice(1)) - 1);
      }
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, j) => writers[(i + j) % 2]!.create(chatMessage(`m${i + j}`, `cluster-${i + j}`))),
      );
      ids.push(...batch.map((b) => b.id));
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const w of writers) await w.close();

    // The cluster elected another node to lead the stream: the writes after the kill went through it.
    const newLeader = await waitFor(
      async () => {
        const l = (await jsm.streams.info(STREAM_NAME)).cluster?.leader;
        return l && l !== leader ? l : undefined;
      },
      { timeout: 30_000, message: "a new stream leader" },
    );
    expect(newLeader).toMatch(/^n[123]$/);
    expect(newLeader).not.toBe(leader);

    const subject = subjectFor(OWNER, "created", "chat.message.v1");
    const stored = await waitFor(
      async () => {
        const got = await storedIds(observer, subject);
        return got.length >= WRITES ? got : undefined;
      },
      { timeout: 60_000, interval: 1_000, message: `${WRITES} created events in the stream` },
    );
    expect(stored).toHaveLength(WRITES);
    expect(new Set(stored)).toEqual(new Set(ids));

    await waitFor(
      async () => {
        const r = await listAll(client, "agent.response.v1");
        return r.length >= WRITES ? r : undefined;
      },
      { timeout: 90_000, interval: 500, message: `${WRITES} agent responses` },
    );
    // Redeliveries after the failover must not write a second answer. Once the agent's consumer has
    // delivered everything and every delivery is acked (an ack lost in the failover is redelivered
    // after the 3 s ack wait first), no further answer can come.
    const consumers: string[] = [];
    for await (const c of jsm.consumers.list(STREAM_NAME)) if (c.name.startsWith(agentConsumerPrefix(OWNER, "cluster"))) consumers.push(c.name);
    expect(consumers).toHaveLength(1);
    await waitForConsumerDrained({ servers: cluster.url.split(",") }, STREAM_NAME, consumers[0]!, { timeout: 60_000 });
    const final = await listAll(client, "agent.response.v1");
    expect(final).toHaveLength(WRITES);
    expect(new Set(final.map((r) => (r.context.in_reply_to as { id: string }).id))).toEqual(new Set(ids));
    console.log(`cluster: leader ${leader} killed at write ${KILL_AT}, ${newLeader} leads now; ${WRITES} events stored once, ${WRITES} answers`);
  }, 240_000);
});
