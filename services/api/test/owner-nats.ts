import { connect, jwtAuthenticator, type NatsConnection } from "nats";
import { expect } from "vitest";
import { mintUser, ownerAccountKey } from "../src/nats-auth/index.ts";
import type { TestStack } from "./stack.ts";

/** What `POST /v1/nats/credentials` answers, as far as these tests read it. */
export interface MintedCreds {
  owner: string;
  jwt: string;
  seed: string;
  creds: string;
  expires_at: string | null;
  servers?: string[];
  extension?: { stream: string; consumer: string; filter_subject: string; inbox_prefix: string };
}

/** A read/write/subscribe key of `owner`, made with the admin token. */
export async function createOwnerKey(stack: TestStack, owner: string, extra: Record<string, unknown> = {}) {
  const res = await stack.call("/v1/keys", { method: "POST", json: { owner, scopes: ["read", "write", "subscribe"], ...extra } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string; expires_at: string | null };
}

/** A `note.v1` breadcrumb written with `token`. */
export async function putNote(stack: TestStack, token: string, title: string) {
  const res = await stack.call("/v1/breadcrumbs", { token, method: "POST", json: { schema_name: "note.v1", title, context: { title } } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; owner: string; version: number };
}

export type CredsKind = { kind: "agent" } | { kind: "extension"; extension_id: string };

/** Credentials minted by the API for `token`'s owner. */
export async function mintCreds(stack: TestStack, token: string, body: CredsKind & { ttl_seconds?: number } = { kind: "agent" }) {
  const res = await stack.call("/v1/nats/credentials", { token, method: "POST", json: body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as MintedCreds;
}

/** A connection with minted credentials; `errors` collects the async errors the server sends it. */
export async function connectWith(stack: TestStack, creds: MintedCreds, opts: { name?: string } = {}) {
  const nc = await connect({
    servers: stack.natsServer.url,
    authenticator: jwtAuthenticator(creds.jwt, new TextEncoder().encode(creds.seed)),
    ...(creds.extension ? { inboxPrefix: creds.extension.inbox_prefix } : {}),
    ...(opts.name ? { name: opts.name } : {}),
  });
  const errors: string[] = [];
  void (async () => {
    for await (const s of nc.status()) if (s.type === "error") errors.push(String(s.data));
  })();
  return { nc, errors };
}

/**
 * The API's own view into an owner's account (what the owner's streams and consumers hold), as a
 * user the test signs with the owner's derived account key: never one an owner can get.
 */
export async function ownerAdmin(stack: TestStack, owner: string): Promise<NatsConnection> {
  const seed = stack.config.auth?.natsAccountSeed;
  if (!seed) throw new Error("the stack has no NATS account seed");
  const user = mintUser({
    accountSeed: ownerAccountKey(seed, owner).seed,
    name: "test-owner-admin",
    permissions: { pub: ["$JS.API.>"], sub: ["_INBOX.>"] },
  });
  return connect({ servers: stack.natsServer.url, authenticator: jwtAuthenticator(user.jwt, new TextEncoder().encode(user.seed)) });
}
