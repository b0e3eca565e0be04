import { readFileSync } from "node:fs";
import { credsAuthenticator, type Authenticator } from "nats";

const JWT_BLOCK = /-----BEGIN NATS USER JWT-----\s*\S+\s*------END NATS USER JWT------/;
const SEED_BLOCK = /-----BEGIN USER NKEY SEED-----\s*SU[A-Z2-7]+\s*------END USER NKEY SEED------/;

/** NATS credentials that cannot be used: a path that cannot be read, or text that is not a .creds file. */
export class NatsCredsError extends Error {
  override readonly name = "NatsCredsError";
  readonly code = "invalid_nats_creds";
}

/** A .creds file's contents as they are, or read from a path: a path never contains the JWT header. */
function readNatsCreds(credsOrPath: string): string {
  if (credsOrPath.includes("-----BEGIN NATS USER JWT-----")) return checkCreds(credsOrPath, "the given credentials");
  let text: string;
  try {
    text = readFileSync(credsOrPath, "utf8");
  } catch (err) {
    const code = (err as { code?: string }).code ?? String(err);
    throw new NatsCredsError(`cannot read the NATS credentials file ${credsOrPath}: ${code}`);
  }
  return checkCreds(text, credsOrPath);
}

// nats.js parses the file only when it connects, and then reports a vague auth error: check it up front.
function checkCreds(text: string, where: string): string {
  if (!JWT_BLOCK.test(text) || !SEED_BLOCK.test(text))
    throw new NatsCredsError(`${where} is not a NATS .creds file (a user JWT and a user nkey seed)`);
  return text;
}

/** The authenticator for a .creds file (path or contents), as every crumbs process passes it to `connect`. */
export function natsCredsAuthenticator(credsOrPath: string): Authenticator {
  return credsAuthenticator(new TextEncoder().encode(readNatsCreds(credsOrPath)));
}
