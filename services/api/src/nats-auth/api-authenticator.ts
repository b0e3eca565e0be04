import { readFileSync } from "node:fs";
import { credsAuthenticator, jwtAuthenticator, type Authenticator } from "nats";
import type { AuthConfig } from "../http/auth-config.ts";
import { mintApiUser } from "./trust.ts";

/**
 * The API's own NATS identity: a .creds file when given, otherwise a user it
 * signs itself with the account seed; neither means an open server (local dev).
 */
export function apiNatsAuthenticator(auth: AuthConfig | undefined): Authenticator | undefined {
  if (auth?.natsCredsFile) return credsAuthenticator(readFileSync(auth.natsCredsFile));
  if (auth?.natsAccountSeed) {
    const user = mintApiUser(auth.natsAccountSeed);
    return jwtAuthenticator(user.jwt, new TextEncoder().encode(user.seed));
  }
  return undefined;
}
