import { connect, DiscardPolicy, jwtAuthenticator, nanos, RetentionPolicy, StorageType, type NatsConnection, type StreamConfig } from "nats";
import { STREAM_SUBJECTS } from "@crumbs/schemas";
import { UnavailableError } from "../errors.ts";
import { DUPLICATE_WINDOW_MS } from "../nats/stream.ts";
import { keyUserKey, OWNER_STREAMS, ownerAccountJwt, ownerAccountKey, REVOCATION_HORIZON_SECONDS } from "./owner-account.ts";
import { ownerPermissions, type OwnerClient } from "./permissions.ts";
import { createNatsTrust, mintUser, type NatsTrust, type UserCredentials } from "./trust.ts";

export interface RevokedKey {
  id: string;
  revokedAt: Date;
}

export interface OwnerBusOptions {
  servers: string[];
  accountSeed: string;
  /** The owner's API keys revoked since `since` (the source of the account's revocations). */
  revokedKeys: (owner: string, since: Date) => Promise<RevokedKey[]>;
  /** How long the owner's events stay in its stream (the main stream's max age). */
  maxAgeSeconds: number;
  replicas: number;
  now: () => Date;
}

const TIMEOUT_MS = 5_000;
/** How long a check of an owner's account and streams is trusted (ensureOwner). */
const OWNER_RECHECK_MS = 10 * 60_000;

/**
 * The owners' accounts on NATS, kept by the API (SECURITY.md, "NATS"; docs/architecture.md,
 * "One account per owner"). For an owner it signs the account JWT (with the revocations of the
 * owner's revoked keys, read from Postgres each time, so every replica pushes the same list),
 * pushes it to the resolver through the system account, makes sure the account's streams exist,
 * and mints users of it.
 */
export class OwnerBus {
  private readonly trust: NatsTrust;
  private sys: Promise<NatsConnection> | undefined;
  /** Owners whose account and streams were checked, on which server (its server_id) and when (ms). */
  private readonly checked = new Map<string, { serverId: string | undefined; at: number }>();
  private readonly checking = new Map<string, Promise<void>>();
  /** Set while the system connection is reconnecting; resolved when it is back. */
  private sysBack: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(private readonly opts: OwnerBusOptions) {
    this.trust = createNatsTrust(opts.accountSeed);
  }

  /** Credentials of a user of the owner's account; the account is pushed and its streams made first. */
  async mint(
    owner: string,
    client: OwnerClient,
    opts: { name: string; ttlSeconds: number; keyId?: string; notAfter?: Date },
  ): Promise<UserCredentials> {
    await this.ensureOwner(owner);
    const account = ownerAccountKey(this.opts.accountSeed, owner);
    return mintUser({
      accountSeed: account.seed,
      name: opts.name,
      permissions: ownerPermissions(owner, client),
      ttlSeconds: opts.ttlSeconds,
      ...(opts.notAfter ? { notAfter: opts.notAfter } : {}),
      ...(opts.keyId ? { userSeed: keyUserKey(this.opts.accountSeed, opts.keyId).seed } : {}),
      now: this.opts.now(),
    });
  }

  /**
   * Pushes the owner's account and makes sure its streams exist, once per owner and NATS server
   * run: checking costs a connection as the owner plus two stream lookups, and every credential
   * of the owner (each client, each renewal) would pay it. What was checked is forgotten when the
   * API's system connection to NATS drops or lands on another server (server_id; a restarted
   * server may have lost accounts or streams), after OWNER_RECHECK_MS, and when a check fails.
   * Concurrent mints for one owner share one check. Measured (`POST /v1/nats/credentials`, 50
   * mints of one owner after the first, load average ~10 on 2 cores): median 141-192 ms (min 54)
   * checking every time, 33-56 ms (min 12) with the check remembered.
   */
  async ensureOwner(owner: string): Promise<void> {
    const sys = await this.systemConnection();
    const serverId = sys.info?.server_id;
    const known = this.checked.get(owner);
    if (known && known.serverId === serverId && this.opts.now().getTime() - known.at < OWNER_RECHECK_MS) return;
    let pending = this.checking.get(owner);
    if (!pending) {
      pending = (async () => {
        this.checked.delete(owner);
        await this.pushAccount(owner);
        await this.ensureStreams(owner);
        this.checked.set(owner, { serverId, at: this.opts.now().getTime() });
      })().finally(() => this.checking.delete(owner));
      this.checking.set(owner, pending);
    }
    await pending;
  }

  /**
   * Call after revoking any API key of `owner`: the account JWT pushed now revokes the user key of
   * every revoked key, and the server disconnects those users' connections.
   */
  async keysRevoked(owner: string): Promise<void> {
    await this.pushAccount(owner).catch((err: unknown) => {
      this.checked.delete(owner);
      throw err;
    });
  }

  async close(): Promise<void> {
    const sys = this.sys;
    this.sys = undefined;
    if (sys) await (await sys.catch(() => undefined))?.close();
  }

  private async pushAccount(owner: string): Promise<void> {
    const now = this.opts.now();
    const revoked = await this.opts.revokedKeys(owner, new Date(now.getTime() - REVOCATION_HORIZON_SECONDS * 1000));
    const revocations: Record<string, number> = {};
    // A user JWT issued at or before the time is refused; ceil, so one minted in the same second is too.
    for (const k of revoked) revocations[keyUserKey(this.opts.accountSeed, k.id).publicKey] = Math.ceil(k.revokedAt.getTime() / 1000);
    const { jwt } = ownerAccountJwt({ trust: this.trust, accountSeed: this.opts.accountSeed, owner, revocations, now, replicas: this.opts.replicas });
    const nc = await this.systemConnection();
    // nats.js drops what is published while it reconnects (each dial resets its outbound buffer): a
    // push sent then timed out after 5 s every time (nats-owner-recheck.test.ts), so wait for the
    // connection to be back first, within the same timeout.
    if (this.sysBack) await waitAtMost(this.sysBack.promise, TIMEOUT_MS);
    const answer = await nc.request("$SYS.REQ.CLAIMS.UPDATE", jwt, { timeout: TIMEOUT_MS }).catch((err: unknown) => {
      throw new UnavailableError(`NATS did not take the account of owner "${owner}": ${String(err)}`);
    });
    const body = JSON.parse(answer.string()) as { data?: { code?: number }; error?: { description?: string } };
    if (body.error || body.data?.code !== 200) {
      throw new UnavailableError(`NATS refused the account of owner "${owner}": ${body.error?.description ?? answer.string()}`);
    }
  }

  private async ensureStreams(owner: string): Promise<void> {
    const account = ownerAccountKey(this.opts.accountSeed, owner);
    const admin = mintUser({
      accountSeed: account.seed,
      name: "crumbs-api",
      permissions: { pub: ["$JS.API.>"], sub: ["_INBOX.>"] },
      ttlSeconds: 300,
      now: this.opts.now(),
    });
    const nc = await this.connectAs(admin);
    try {
      const jsm = await nc.jetstreamManager();
      for (const want of this.streamConfigs(owner)) {
        const info = await jsm.streams.info(want.name).catch(() => undefined);
        if (!info) await jsm.streams.add(want);
        else if (
          info.config.max_bytes !== want.max_bytes ||
          info.config.max_age !== want.max_age ||
          info.config.subjects.join() !== want.subjects!.join()
        ) {
          await jsm.streams.update(want.name, { ...info.config, max_bytes: want.max_bytes, max_age: want.max_age, subjects: want.subjects! });
        }
      }
    } catch (err) {
      throw new UnavailableError(`the NATS streams of owner "${owner}" could not be made: ${String(err)}`);
    } finally {
      await nc.close();
    }
  }

  private streamConfigs(owner: string): (Partial<StreamConfig> & { name: string })[] {
    const maxAge = nanos(this.opts.maxAgeSeconds * 1000);
    const common = {
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: maxAge,
      duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, this.opts.maxAgeSeconds * 1000)),
      num_replicas: this.opts.replicas,
    };
    return [
      // `crumbs.>`, not `crumbs.<owner>.>`: it holds only what the import brings (the owner's events), and a
      // filter written for the main stream (`crumbs.*.created.<schema>`, the runner's and the SDK's) is valid on it.
      { ...common, name: OWNER_STREAMS.events.name, subjects: [...STREAM_SUBJECTS], max_bytes: OWNER_STREAMS.events.maxBytes },
      {
        ...common,
        name: OWNER_STREAMS.replay.name,
        subjects: [`${OWNER_STREAMS.replay.prefix}.${owner}.>`],
        max_bytes: OWNER_STREAMS.replay.maxBytes,
      },
    ];
  }

  private systemConnection(): Promise<NatsConnection> {
    if (this.sys) return this.sys;
    const user = mintUser({
      accountSeed: this.trust.system.seed,
      name: "crumbs-api-system",
      permissions: { pub: ["$SYS.REQ.CLAIMS.UPDATE"], sub: ["_INBOX.>"] },
    });
    const sys = this.connectAs(user, true).then(
      (nc) => {
        // A dropped connection may come back to a server that lost what was checked.
        void (async () => {
          for await (const st of nc.status()) {
            if (st.type === "disconnect") {
              this.checked.clear();
              if (!this.sysBack) {
                let resolve!: () => void;
                const promise = new Promise<void>((r) => (resolve = r));
                this.sysBack = { promise, resolve };
              }
            } else if (st.type === "reconnect") {
              this.checked.clear();
              this.sysBack?.resolve();
              this.sysBack = undefined;
            }
          }
        })().catch(() => {});
        return nc;
      },
      (err: unknown) => {
        this.sys = undefined;
        throw err;
      },
    );
    this.sys = sys;
    return sys;
  }

  private async connectAs(user: UserCredentials, keep = false): Promise<NatsConnection> {
    return connect({
      servers: this.opts.servers,
      authenticator: jwtAuthenticator(user.jwt, new TextEncoder().encode(user.seed)),
      name: user.permissions.pub[0]?.startsWith("$SYS") ? "crumbs-api-system" : "crumbs-api-owner",
      timeout: TIMEOUT_MS,
      maxReconnectAttempts: keep ? -1 : 0,
      reconnectTimeWait: 250,
      noAsyncTraces: true,
    }).catch((err: unknown) => {
      throw new UnavailableError(`cannot connect to NATS for the owner accounts: ${String(err)}`);
    });
  }
}

/** Resolves when `p` does or after `ms`, whichever comes first. */
async function waitAtMost(p: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
