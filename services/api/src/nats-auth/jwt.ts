import { createHash } from "node:crypto";
import { nkeys } from "nats";
import { base32 } from "./nkey-seed.ts";

/**
 * NATS decentralized-auth JWTs (v2 claims), encoded and signed here so that the
 * API can mint per-owner user credentials without a server restart or reload:
 * the server trusts the account key, not a user list.
 */

const header = { typ: "JWT", alg: "ed25519-nkey" } as const;
const b64url = (data: Uint8Array | string) => Buffer.from(data).toString("base64url");

export interface Claims {
  sub: string;
  name: string;
  /** Seconds since the epoch. */
  exp?: number;
  nats: Record<string, unknown> & { type: "operator" | "account" | "user"; version: 2 };
}

/** Signs claims with an nkey seed (operator seed for accounts, account seed for users). */
export function encodeJwt(claims: Claims, signerSeed: string, now = new Date()): string {
  const signer = nkeys.fromSeed(new TextEncoder().encode(signerSeed));
  const body: Record<string, unknown> = {
    jti: "",
    iat: Math.floor(now.getTime() / 1000),
    iss: signer.getPublicKey(),
    ...claims,
  };
  // Like the Go library: the id is the hash of the claims with an empty id.
  body.jti = base32(createHash("sha512-256").update(JSON.stringify(body)).digest());
  const signingInput = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(body))}`;
  const sig = signer.sign(new TextEncoder().encode(signingInput));
  return `${signingInput}.${b64url(sig)}`;
}

/** The `.creds` file format every NATS client reads (nats.js `credsAuthenticator`, the nats CLI, Go, ...). */
export function formatCreds(jwt: string, seed: string): string {
  return [
    "-----BEGIN NATS USER JWT-----",
    jwt,
    "------END NATS USER JWT------",
    "",
    "************************* IMPORTANT *************************",
    "NKEY Seed printed below can be used to sign and prove identity.",
    "NKEYs are sensitive and should be treated as secrets.",
    "",
    "-----BEGIN USER NKEY SEED-----",
    seed,
    "------END USER NKEY SEED------",
    "",
  ].join("\n");
}
