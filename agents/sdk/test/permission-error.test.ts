import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CrumbsClient, NatsPermissionError } from "@crumbs/agent-sdk";
import { startLockedStack, type TestStack } from "../../../services/api/test/stack.ts";

// On a locked nats-server (as `crumbs start` and docker compose run it) a subscription or publish
// the owner's credentials may not make is refused by the server. The SDK says so as one typed,
// non-retryable error naming the fix, where the call was made: never a wait that ends in a wrong
// diagnosis ("stream does not exist"), never an uncaught async error.

describe("NatsPermissionError: what an owner's credentials may not do, in one line", () => {
  let s: TestStack;
  let url: string;
  let token: string;
  const unhandled: unknown[] = [];
  const record = (err: unknown) => unhandled.push(err);
  beforeAll(async () => {
    s = await startLockedStack();
    url = await s.serve();
    const res = await s.call("/v1/keys", { method: "POST", json: { owner: "perm", scopes: ["read", "write", "subscribe"] } });
    token = ((await res.json()) as { token: string }).token;
    process.on("unhandledRejection", record);
    process.on("uncaughtException", record);
  });
  afterEach(() => {
    // Whatever the SDK did in the background, nothing escaped to the process.
    expect(unhandled).toEqual([]);
  });
  afterAll(async () => {
    process.off("unhandledRejection", record);
    process.off("uncaughtException", record);
    await s?.dispose();
  });

  const expectOneLine = (err: NatsPermissionError) => {
    expect(err.message).not.toContain("\n");
    expect(String(err)).toMatch(/^NatsPermissionError: NATS refused these credentials to /);
    expect(err.retryable).toBe(false);
    expect(err.code).toBe("nats_forbidden");
  };

  it("a plain subscription on another owner's replay subjects rejects subscribe() with the subject and the fix", async () => {
    const client = new CrumbsClient({ url, token, env: {} });
    try {
      const err = await client.subscribe({ schema_name: "test.perm.v1" }, { subjectPrefix: "replay", owner: "someone-else" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NatsPermissionError);
      const refused = err as NatsPermissionError;
      expect(refused).toMatchObject({ operation: "subscribe", subject: "replay.someone-else.*.test.perm.v1" });
      expect(refused.serverText).toBe('Permissions Violation for Subscription to "replay.someone-else.*.test.perm.v1"');
      expect(refused.message).toContain("someone-else is not theirs: subscribe with that owner's token");
      expectOneLine(refused);
      // The connection is still good: the owner's own replay subjects are allowed (the owner is filled in from the token).
      const own = await client.subscribe({ schema_name: "test.perm.v1" }, { subjectPrefix: "replay" });
      expect(own.filterSubject).toBe("replay.perm.*.test.perm.v1");
      await own.stop();
    } finally {
      await client.close();
    }
  });

  it("owner credentials given as NATS_CREDS, subscribing on every owner's replays: refused, and told to pass the owner", async () => {
    const minted = await s.call("/v1/nats/credentials", { method: "POST", token, json: { kind: "agent" } });
    const { creds } = (await minted.json()) as { creds: string };
    const client = new CrumbsClient({ url, token, env: { NATS_URL: s.natsServer.url, NATS_CREDS: creds } });
    try {
      const err = await client.subscribe({ schema_name: "test.perm.v1" }, { subjectPrefix: "replay" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NatsPermissionError);
      expect(err).toMatchObject({ operation: "subscribe", subject: "replay.*.*.test.perm.v1" });
      expect((err as Error).message).toContain("pass the owner option");
      expectOneLine(err as NatsPermissionError);
    } finally {
      await client.close();
    }
  });

  it("an extension's credentials, which may not use JetStream, reject a durable subscribe at once instead of waiting for the stream", async () => {
    const minted = await s.call("/v1/nats/credentials", { method: "POST", token, json: { kind: "extension", extension_id: "perm1" } });
    expect(minted.status).toBe(200);
    const { creds } = (await minted.json()) as { creds: string };
    const client = new CrumbsClient({ url, token, env: { NATS_URL: s.natsServer.url, NATS_CREDS: creds } });
    try {
      // A stream wait far past the test's timeout: only the refusal can end this call in time.
      const err = await client.subscribe({ schema_name: "test.perm.v1" }, { durable: "perm-agent", streamWaitMs: 600_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NatsPermissionError);
      const refused = err as NatsPermissionError;
      // The first thing JetStream needs: nats.js's reply inbox, which these credentials may not receive on.
      expect(refused.operation).toBe("subscribe");
      expect(refused.subject).toMatch(/^_INBOX\.\w+\.\*$/);
      expect(refused.message).toContain('use an agent\'s, which `new CrumbsClient({url, token})` mints with a key that has the subscribe scope (POST /v1/nats/credentials {"kind":"agent"})');
      expectOneLine(refused);
    } finally {
      await client.close();
    }
  });
});
