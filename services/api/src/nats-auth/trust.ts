import { join } from "node:path";
import { nkeys } from "nats";
import { encodeJwt, formatCreds } from "./jwt.ts";
import { deriveKey, type DerivedKey } from "./nkey-seed.ts";
import { OWNER_FEED_PREFIX } from "./owner-feed.ts";
import { apiPermissions, runnerPermissions, type SubjectPermissions } from "./permissions.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

export const unlimited = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 };

/** The CRUMBS account's export every owner account imports its own part of (owner-account.ts, owner-feed.ts). */
export const OWNER_EVENTS_EXPORT = { name: "owner-events", subject: `${OWNER_FEED_PREFIX}.*.>`, type: "stream" } as const;

export interface NatsTrust {
  operatorPublicKey: string;
  accountPublicKey: string;
  systemPublicKey: string;
  /** Secret: the CRUMBS account's seed, from which every other key is derived (nkey-seed.ts). */
  accountSeed: string;
  /** Signs owner accounts (derived): only the API holds it, through `accountSeed`. */
  operator: DerivedKey;
  /** The system account (derived): its user pushes owner accounts to the resolver. */
  system: DerivedKey;
  /**
   * nats-server config lines (`auth.conf`): the operator, the system account and the CRUMBS and
   * system accounts preloaded into the resolver. The resolver itself (`resolverConfig`) names a
   * folder of the server, so the server's own config carries it.
   */
  serverConfig: string;
}

/**
 * The operator, the `CRUMBS` account (JetStream, the main stream) and the system account, all
 * derived from the CRUMBS account seed (a new one unless given): `crumbs keys nats-init` and
 * `crumbs start` rewrite the config from `account.seed` alone, and the API, holding only that
 * seed, can sign the owner accounts it pushes at run time (SECURITY.md, "NATS").
 */
export function createNatsTrust(accountSeed?: string): NatsTrust {
  const seed = accountSeed ?? dec.decode(nkeys.createAccount().getSeed());
  const accountPublicKey = nkeys.fromSeed(enc.encode(seed)).getPublicKey();
  const operator = deriveKey(seed, "operator", "operator");
  const system = deriveKey(seed, "account", "system");
  // A fixed issue time: the files are the same on every rewrite, and the resolver keeps what it has.
  const issued = new Date("2020-01-01T00:00:00Z");
  const accountJwt = encodeJwt(
    {
      sub: accountPublicKey,
      name: "CRUMBS",
      nats: {
        type: "account",
        version: 2,
        limits: { ...unlimited, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 },
        default_permissions: { pub: {}, sub: {} },
        // One-way: an importing owner account receives what is published here; nothing it does
        // (a request, its reply subject, a push consumer) can publish back into CRUMBS.
        exports: [OWNER_EVENTS_EXPORT],
      },
    },
    operator.seed,
    issued,
  );
  const systemJwt = encodeJwt(
    { sub: system.publicKey, name: "SYS", nats: { type: "account", version: 2, limits: unlimited } },
    operator.seed,
    issued,
  );
  const operatorJwt = encodeJwt(
    { sub: operator.publicKey, name: "crumbs", nats: { type: "operator", version: 2, system_account: system.publicKey } },
    operator.seed,
    issued,
  );
  const serverConfig = [
    `operator: ${operatorJwt}`,
    `system_account: ${system.publicKey}`,
    "resolver_preload: {",
    `  ${accountPublicKey}: ${accountJwt}`,
    `  ${system.publicKey}: ${systemJwt}`,
    "}",
  ].join("\n");
  return { operatorPublicKey: operator.publicKey, accountPublicKey, systemPublicKey: system.publicKey, accountSeed: seed, operator, system, serverConfig };
}

/**
 * The resolver block of a server's config: `full` keeps the account JWTs the API pushes
 * (`$SYS.REQ.CLAIMS.UPDATE`) in `dir`, so they survive a restart, and shares them within a cluster.
 * Deleting accounts is not allowed: an owner's account is updated, never removed.
 */
export const resolverConfig = (dir: string) => `resolver: { type: full, dir: ${JSON.stringify(dir)}, allow_delete: false, interval: "2m" }`;

/** The whole auth part of a server's config, its resolver keeping the account JWTs in `dir`/jwt (tests). */
export const lockedServerConfig = (trust: Pick<NatsTrust, "serverConfig">, dir: string) =>
  `${trust.serverConfig}\n${resolverConfig(join(dir, "jwt"))}`;

export interface UserCredentials {
  jwt: string;
  seed: string;
  /** Both in the `.creds` file format. */
  creds: string;
  expires_at: string | null;
  permissions: SubjectPermissions;
}

/** A user of the account whose seed signs it; the server needs no change to accept it. */
export function mintUser(opts: {
  accountSeed: string;
  name: string;
  permissions: SubjectPermissions;
  ttlSeconds?: number;
  /** Never valid past this, whatever the ttl (the API key's own expiry). */
  notAfter?: Date;
  /** A fixed user key (one per API key, so that revoking the key can name it); a new one otherwise. */
  userSeed?: string;
  now?: Date;
}): UserCredentials {
  const now = opts.now ?? new Date();
  const user = opts.userSeed ? nkeys.fromSeed(enc.encode(opts.userSeed)) : nkeys.createUser();
  const ends = [
    ...(opts.ttlSeconds ? [Math.floor(now.getTime() / 1000) + opts.ttlSeconds] : []),
    ...(opts.notAfter ? [Math.floor(opts.notAfter.getTime() / 1000)] : []),
  ];
  const exp = ends.length ? Math.min(...ends) : undefined;
  const jwt = encodeJwt(
    {
      sub: user.getPublicKey(),
      name: opts.name,
      ...(exp ? { exp } : {}),
      nats: {
        type: "user",
        version: 2,
        pub: side(opts.permissions.pub, opts.permissions.deny?.pub),
        sub: side(opts.permissions.sub, opts.permissions.deny?.sub),
        subs: -1,
        data: -1,
        payload: -1,
      },
    },
    opts.accountSeed,
    now,
  );
  const seed = dec.decode(user.getSeed());
  return {
    jwt,
    seed,
    creds: formatCreds(jwt, seed),
    expires_at: exp ? new Date(exp * 1000).toISOString() : null,
    permissions: opts.permissions,
  };
}

// An empty allow list would mean "everything"; deny-all says what an empty list intends.
function side(allow: string[], deny: string[] = []) {
  if (!allow.length) return { deny: [">"] };
  return deny.length ? { allow, deny } : { allow };
}

export const mintApiUser = (accountSeed: string) => mintUser({ accountSeed, name: "crumbs-api", permissions: apiPermissions() });
export const mintRunnerUser = (accountSeed: string) =>
  mintUser({ accountSeed, name: "crumbs-runner", permissions: runnerPermissions() });

/** Accepts only an account seed ("SA..."), so a user or operator seed is refused at config time. */
export function isAccountSeed(seed: string): boolean {
  try {
    return nkeys.fromSeed(enc.encode(seed)).getPublicKey().startsWith("A");
  } catch {
    return false;
  }
}
