import { createHmac } from "node:crypto";
import { nkeys } from "nats";

/**
 * Keys derived from the one secret the API holds (the CRUMBS account seed): the operator that signs
 * owner accounts, the system account whose user pushes them, each owner's account and the user key
 * of each API key. Every replica derives the same keys, so none is stored or shared, and
 * `crumbs keys nats-init` can rewrite the server's config from `account.seed` alone.
 */

/** nkeys role prefixes (the first base32 character of a key: O, A, U). */
const ROLE = { operator: 14 << 3, account: 0, user: 20 << 3 } as const;
export type NkeyRole = keyof typeof ROLE;

const SEED_PREFIX = 18 << 3; // "S"

/** RFC 4648 base32 without padding, as nkeys and JWT ids use it. */
export function base32(buf: Uint8Array): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** CRC-16/XMODEM, the nkey checksum. */
function crc16(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The seed string ("SO...", "SA...", "SU...") of 32 raw bytes. */
export function encodeSeed(role: NkeyRole, raw: Uint8Array): string {
  if (raw.length !== 32) throw new Error("an nkey seed is 32 bytes");
  const prefix = ROLE[role];
  const body = new Uint8Array(2 + 32 + 2);
  body[0] = SEED_PREFIX | (prefix >> 5);
  body[1] = (prefix & 31) << 3;
  body.set(raw, 2);
  const crc = crc16(body.subarray(0, 34));
  body[34] = crc & 0xff;
  body[35] = crc >> 8;
  return base32(body);
}

export interface DerivedKey {
  seed: string;
  publicKey: string;
}

/** A key of `role` derived from `secret` for `label`: the same inputs give the same key in every process. */
export function deriveKey(secret: string, role: NkeyRole, label: string): DerivedKey {
  const raw = createHmac("sha256", secret).update(`crumbs-nats/${role}/${label}`).digest();
  const seed = encodeSeed(role, raw);
  return { seed, publicKey: nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey() };
}
