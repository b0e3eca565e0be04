import { ownerSubjects, STREAM_NAME } from "@crumbs/schemas";
import { encodeJwt } from "./jwt.ts";
import { deriveKey, type DerivedKey } from "./nkey-seed.ts";
import { OWNER_FEED_PREFIX } from "./owner-feed.ts";
import { assertSubjectToken } from "./subject-token.ts";
import { OWNER_EVENTS_EXPORT, type NatsTrust } from "./trust.ts";

const MiB = 1024 * 1024;

/**
 * What one owner's account may hold and do: the limits belong to the owner, not to each key,
 * and whatever its users fill or evict is the owner's own (SECURITY.md, "NATS").
 */
export const OWNER_LIMITS = {
  /** JetStream file storage of the whole account: its CRUMBS and REPLAY streams and any of its own. */
  diskBytes: 512 * MiB,
  memBytes: 64 * MiB,
  /** Every stream must say how large it may grow, and none may be larger than this. */
  streamBytes: 256 * MiB,
  streams: 8,
  consumers: 128,
  connections: 256,
  subscriptions: 10_000,
} as const;

/** The streams the API keeps in every owner's account. */
export const OWNER_STREAMS = {
  /** The owner's events under their usual subjects and message ids, fed by the import of `crumbs.<owner>.>`. */
  events: { name: STREAM_NAME, maxBytes: 256 * MiB },
  /** Replays published by the owner's own clients on `replay.<owner>.>` (`crumbs replay --publish replay`). */
  replay: { name: "REPLAY", prefix: "replay", maxBytes: 64 * MiB },
} as const;

/** Credentials live at most a day (`ttl_seconds`); a revocation older than that names nothing valid. */
export const REVOCATION_HORIZON_SECONDS = 86_400;

/** The owner's account key, derived: every API replica signs the same account for an owner. */
export const ownerAccountKey = (accountSeed: string, owner: string): DerivedKey =>
  deriveKey(accountSeed, "account", `owner/${assertSubjectToken(owner)}`);

/**
 * The user key of every credential one API key mints: revoking the key revokes that user key in
 * the owner's account JWT (`revocations`), which disconnects its connections at once.
 */
export const keyUserKey = (accountSeed: string, keyId: string): DerivedKey => deriveKey(accountSeed, "user", `key/${keyId}`);

/**
 * The owner's account JWT, signed by the operator: JetStream within `OWNER_LIMITS`, one stream
 * import, the owner's events from CRUMBS as `crumbs.<owner>.>` (owner-feed.ts), and the user keys of the owner's revoked API keys.
 * No service import: nothing in the account is a path into another account, so neither a request's
 * reply subject nor a push consumer's deliver subject can reach outside it.
 */
export function ownerAccountJwt(opts: {
  trust: Pick<NatsTrust, "accountPublicKey" | "operator">;
  accountSeed: string;
  owner: string;
  /** User public key to revocation time (seconds since the epoch). */
  revocations: Record<string, number>;
  now: Date;
  /**
   * Copies of each stream (CRUMBS_STREAM_REPLICAS). On a cluster JetStream reserves a stream's
   * max_bytes once per replica against the account's storage, so the owner's 512 MiB would not hold
   * its two streams at 3 replicas (768 + 192 MiB): `insufficient storage resources available`, found
   * on the compose cluster overlay. The owner's budget is per copy; the account holds `replicas` of it.
   */
  replicas?: number;
}): { publicKey: string; jwt: string } {
  const account = ownerAccountKey(opts.accountSeed, opts.owner);
  const copies = Math.max(1, opts.replicas ?? 1);
  const jwt = encodeJwt(
    {
      sub: account.publicKey,
      name: `owner:${opts.owner}`,
      nats: {
        type: "account",
        version: 2,
        limits: {
          subs: OWNER_LIMITS.subscriptions,
          conn: OWNER_LIMITS.connections,
          leaf: 0,
          data: -1,
          payload: -1,
          imports: -1,
          exports: 0,
          wildcards: true,
          mem_storage: OWNER_LIMITS.memBytes * copies,
          disk_storage: OWNER_LIMITS.diskBytes * copies,
          streams: OWNER_LIMITS.streams,
          consumer: OWNER_LIMITS.consumers,
          mem_max_stream_bytes: OWNER_LIMITS.memBytes,
          disk_max_stream_bytes: OWNER_LIMITS.streamBytes,
          max_bytes_required: true,
        },
        imports: [
          {
            name: OWNER_EVENTS_EXPORT.name,
            subject: `${OWNER_FEED_PREFIX}.${opts.owner}.>`,
            local_subject: ownerSubjects(opts.owner),
            account: opts.trust.accountPublicKey,
            type: "stream",
          },
        ],
        ...(Object.keys(opts.revocations).length ? { revocations: opts.revocations } : {}),
        default_permissions: { pub: {}, sub: {} },
      },
    },
    opts.trust.operator.seed,
    opts.now,
  );
  return { publicKey: account.publicKey, jwt };
}
