import { nkeys } from "nats";
import { encodeJwt, formatCreds } from "./jwt.ts";
import { apiPermissions, runnerPermissions, type SubjectPermissions } from "./permissions.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

const unlimited = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 };

export interface NatsTrust {
  operatorPublicKey: string;
  accountPublicKey: string;
  /** Secret: whoever holds it can mint users of the crumbs account (the API does). */
  accountSeed: string;
  /** nats-server config lines: operator, system account, memory resolver with both accounts preloaded. */
  serverConfig: string;
}

/**
 * A fresh operator, the `CRUMBS` account (JetStream enabled) and a system
 * account. Run once per deployment (`crumbs keys nats-init`); the operator
 * seed is thrown away, since accounts never change at run time.
 */
export function createNatsTrust(now = new Date()): NatsTrust {
  const operator = nkeys.createOperator();
  const account = nkeys.createAccount();
  const system = nkeys.createAccount();
  const operatorSeed = dec.decode(operator.getSeed());
  const accountJwt = encodeJwt(
    {
      sub: account.getPublicKey(),
      name: "CRUMBS",
      nats: {
        type: "account",
        version: 2,
        limits: { ...unlimited, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 },
        default_permissions: { pub: {}, sub: {} },
      },
    },
    operatorSeed,
    now,
  );
  const systemJwt = encodeJwt(
    { sub: system.getPublicKey(), name: "SYS", nats: { type: "account", version: 2, limits: unlimited } },
    operatorSeed,
    now,
  );
  const operatorJwt = encodeJwt(
    {
      sub: operator.getPublicKey(),
      name: "crumbs",
      nats: { type: "operator", version: 2, system_account: system.getPublicKey() },
    },
    operatorSeed,
    now,
  );
  const serverConfig = [
    `operator: ${operatorJwt}`,
    `system_account: ${system.getPublicKey()}`,
    "resolver: MEMORY",
    "resolver_preload: {",
    `  ${account.getPublicKey()}: ${accountJwt}`,
    `  ${system.getPublicKey()}: ${systemJwt}`,
    "}",
  ].join("\n");
  return {
    operatorPublicKey: operator.getPublicKey(),
    accountPublicKey: account.getPublicKey(),
    accountSeed: dec.decode(account.getSeed()),
    serverConfig,
  };
}

export interface UserCredentials {
  jwt: string;
  seed: string;
  /** Both in the `.creds` file format. */
  creds: string;
  expires_at: string | null;
  permissions: SubjectPermissions;
}

/** A user of the crumbs account, signed with the account seed; the server needs no change to accept it. */
export function mintUser(opts: {
  accountSeed: string;
  name: string;
  permissions: SubjectPermissions;
  ttlSeconds?: number;
  now?: Date;
}): UserCredentials {
  const now = opts.now ?? new Date();
  const user = nkeys.createUser();
  const exp = opts.ttlSeconds ? Math.floor(now.getTime() / 1000) + opts.ttlSeconds : undefined;
  // An empty allow list would mean "everything"; deny-all says what an empty list intends.
  const side = (allow: string[]) => (allow.length ? { allow } : { deny: [">"] });
  const jwt = encodeJwt(
    {
      sub: user.getPublicKey(),
      name: opts.name,
      ...(exp ? { exp } : {}),
      nats: {
        type: "user",
        version: 2,
        pub: side(opts.permissions.pub),
        sub: side(opts.permissions.sub),
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
