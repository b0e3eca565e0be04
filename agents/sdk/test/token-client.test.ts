import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { CrumbsClient, type BreadcrumbEvent } from "@crumbs/agent-sdk";
import { startLockedStack, type TestStack } from "../../../services/api/test/stack.ts";

// A token is all an owner needs: on a locked nats-server (operator and account JWTs, as `crumbs
// start` and docker compose run it) the client asks the API for NATS credentials of the token's
// owner and for the servers, connects, and renews the credentials before they expire.

describe("new CrumbsClient({url, token}) on a locked NATS", () => {
  let s: TestStack;
  let url: string;
  let token: string;
  beforeAll(async () => {
    s = await startLockedStack();
    url = await s.serve();
    const res = await s.call("/v1/keys", { method: "POST", json: { owner: "tok", scopes: ["read", "write", "subscribe"] } });
    token = ((await res.json()) as { token: string }).token;
  });
  afterAll(() => s?.dispose());

  it("connects with nothing but the token, receives its owner's events, and keeps receiving after its first credentials expired", { timeout: 150_000 }, async () => {
    const mints: number[] = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith("/v1/nats/credentials") && res.ok) mints.push(Date.parse(((await res.clone().json()) as { expires_at: string }).expires_at));
      return res;
    };
    // No NATS_URL, no NATS_CREDS: an empty environment.
    const client = new CrumbsClient({ url, token, fetch: recording, env: {}, natsCredentialsTtl: 60 });
    try {
      const nc = await client.nats();
      expect(nc.getServer()).toBe(new URL(s.natsServer.url).host);
      const got: string[] = [];
      const sub = nc.subscribe("crumbs.tok.>", { callback: (_e, m) => got.push((m.json() as BreadcrumbEvent).breadcrumb.title) });
      await nc.flush();
      await client.create({ schema_name: "test.token.v1", title: "first", context: {} });
      await waitFor(() => got.includes("first"), { timeout: 15_000, message: "the first event over NATS" });
      // Renewed at four fifths of the 60 s life, before the server would disconnect it.
      await waitFor(() => mints.length >= 2, { timeout: 70_000, message: "renewed credentials" });
      // The first credentials' expiry is the state this waits for: after it only the new ones can work.
      await waitFor(() => Date.now() > mints[0]! + 1_000, { timeout: 30_000, message: "the first credentials expired" });
      await client.create({ schema_name: "test.token.v1", title: "after expiry", context: {} });
      await waitFor(() => got.includes("after expiry"), { timeout: 15_000, message: "an event after the first credentials expired" });
      expect(nc.isClosed()).toBe(false);
      sub.unsubscribe();
    } finally {
      await client.close();
    }
  });
});
