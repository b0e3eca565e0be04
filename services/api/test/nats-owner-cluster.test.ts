import { connect, jwtAuthenticator, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrumbsClient, type EventSubscription } from "@crumbs/agent-sdk";
import { createTestDatabase, NatsCluster, waitFor, type TestDatabase } from "@crumbs/testkit";
import { assembleApi, type ApiStack } from "../src/assemble.ts";
import { loadApiConfig } from "../src/config.ts";
import { createNatsTrust, lockedServerConfig, mintApiUser, mintUser, ownerAccountKey } from "../src/nats-auth/index.ts";
import { closeServer, listen } from "../src/server.ts";
import { createLogger, silentLogger } from "@crumbs/telemetry";

/**
 * Owner accounts on the scale-out shape (docs/scaling.md): three nats-server nodes in operator
 * mode, each with its own `full` resolver, routed into one JetStream cluster; the API pushes an
 * owner's account to one node and the resolvers share it; the owner's streams keep 3 replicas.
 * An owner's agent, with nothing but a token, holds a durable subscription that keeps receiving,
 * in order, when the node leading the owner's stream is killed.
 */
const TOKEN = "test-admin-token-cluster-owner";
const OWNER = "clu";

describe("owner accounts on a 3-node NATS cluster", () => {
  const trust = createNatsTrust();
  const apiUser = mintApiUser(trust.accountSeed);
  let cluster: NatsCluster;
  let db: TestDatabase;
  let stack: ApiStack;
  let server: Awaited<ReturnType<typeof listen>>;
  let url: string;
  let admin: NatsConnection;

  beforeAll(async () => {
    [cluster, db] = await Promise.all([
      NatsCluster.start({
        size: 3,
        extraConfig: (nodeDir) => lockedServerConfig(trust, nodeDir),
        connectOptions: { authenticator: jwtAuthenticator(apiUser.jwt, new TextEncoder().encode(apiUser.seed)) },
      }),
      createTestDatabase("crumbs_owner_cluster"),
    ]);
    const config = loadApiConfig({
      DATABASE_URL: db.url,
      NATS_URL: cluster.url,
      PORT: "0",
      HOST: "127.0.0.1",
      CRUMBS_TOKEN: TOKEN,
      CRUMBS_NATS_ACCOUNT_SEED: trust.accountSeed,
      CRUMBS_STREAM_REPLICAS: "3",
      CRUMBS_RELAY_POLL_MS: "50",
    });
    stack = await assembleApi({ config, logger: process.env.CRUMBS_TEST_LOG ? createLogger({ level: "debug", format: "pretty" }) : silentLogger });
    server = await listen(stack.app.fetch, "127.0.0.1", 0);
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  }, 120_000);

  afterAll(async () => {
    await admin?.close().catch(() => {});
    if (server) await closeServer(server);
    await stack?.close();
    await cluster?.dispose();
    await db?.drop().catch(() => {});
  });

  it("an owner's durable subscription keeps receiving in order when the node leading the owner's stream is killed", { timeout: 180_000 }, async () => {
    const made = await fetch(`${url}/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ owner: OWNER, scopes: ["read", "write", "subscribe"] }),
    });
    expect(made.status).toBe(201);
    const { token } = (await made.json()) as { token: string };
    const writer = new CrumbsClient({ url, token, env: {} });
    const agent = new CrumbsClient({ url, token, env: {} });
    let sub: EventSubscription | undefined;
    try {
      // The agent's first call mints credentials: the account is pushed, its streams made with 3 replicas.
      sub = await agent.subscribe({ schema_name: "test.cluster.v1" }, { durable: "clu-agent", deliver: "all" });
      const got: { title: string; seq: number }[] = [];
      const loop = (async () => {
        for await (const d of sub!) got.push({ title: d.event.breadcrumb.title, seq: d.event.seq });
      })();
      const write = async (from: number, n: number) => {
        for (let i = from; i < from + n; i++) await writer.create({ schema_name: "test.cluster.v1", title: `c${i}`, context: {} });
      };
      await write(0, 20);
      await waitFor(() => got.length >= 20, { timeout: 30_000, message: "20 events before the kill" });

      // What the owner's account holds, seen as the API sees it (a user of the owner's account).
      const owner = mintUser({ accountSeed: ownerAccountKey(trust.accountSeed, OWNER).seed, name: "test-owner-admin", permissions: { pub: ["$JS.API.>"], sub: ["_INBOX.>"] } });
      admin = await connect({ servers: cluster.url.split(","), authenticator: jwtAuthenticator(owner.jwt, new TextEncoder().encode(owner.seed)) });
      const jsm = await admin.jetstreamManager();
      const before = await jsm.streams.info("CRUMBS");
      expect(before.config.num_replicas).toBe(3);
      expect(before.cluster?.replicas).toHaveLength(2);
      const leader = before.cluster!.leader!;
      expect(leader).toMatch(/^n[123]$/);

      await cluster.stop(Number(leader.slice(1)) - 1);
      // State, not time: the stream and the agent's consumer have a leader again, on another node.
      await waitFor(
        async () => {
          const s = await jsm.streams.info("CRUMBS").catch(() => undefined);
          const c = await jsm.consumers.info("CRUMBS", "clu-agent").catch(() => undefined);
          return s?.cluster?.leader && s.cluster.leader !== leader && c?.cluster?.leader && c.cluster.leader !== leader;
        },
        { timeout: 60_000, interval: 250, message: "new leaders for the owner's stream and consumer" },
      );
      await write(20, 20);
      await waitFor(() => got.length >= 40, { timeout: 60_000, message: "20 events after the kill" });

      expect(got.map((g) => g.title)).toEqual(Array.from({ length: 40 }, (_, i) => `c${i}`));
      expect(got.map((g) => g.seq)).toEqual([...got.map((g) => g.seq)].sort((a, b) => a - b));
      await sub.stop();
      await loop;
      console.log(`owner cluster: stream leader ${leader} killed; 40 events received in order, none twice`);
    } finally {
      await sub?.stop().catch(() => {});
      await agent.close();
      await writer.close();
    }
  });
});
