import { INTEREST_RENEW_MS, INTEREST_TTL_SECONDS, interestLeaseBody } from "@crumbs/schemas";
import type { CrumbsHttp } from "./http-client.ts";
import { Serial } from "./serial.ts";

// A holder of a browser.context.interest.v1 lease: while it holds one, the owner's extension captures
// the page and keeps browser.page.context.v1 current; with no lease anywhere it captures nothing. The
// lease is a breadcrumb with a TTL, so a process that dies stops counting within INTEREST_TTL_SECONDS
// with no cleanup. A renewal extends the lease in place (a PATCH of `ttl_seconds`: one `updated`
// event); a lease that is gone by then (expired while the API was away, deleted by hand) is written
// anew. The contract: @crumbs/schemas, interest-schema.ts.

export interface InterestHolder {
  /** Stable across renewals, one per process or subscription: e.g. `sdk:<uuid>`, `runner:<instance>`. */
  id: string;
  /** What the user reads in the side panel: "sdk: my-agent", "runner: 3 agents". */
  label: string;
}

export interface InterestLeaseOptions {
  holder: InterestHolder;
  /** Only this extension; absent: any of the owner's browsers. */
  extensionId?: string;
  ttlSeconds?: number;
  renewMs?: number;
  /** A renewal or delete that failed; the next renewal tries again. */
  onError?: (err: unknown) => void;
  timers?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
}

type LeaseHttp = Pick<CrumbsHttp, "create" | "patch" | "delete">;

/** A lease that cannot be extended: gone (404), or changed by someone else (412). */
const isGone = (err: unknown) => [404, 412].includes((err as { status?: number }).status ?? 0);

const realTimers = {
  set: (fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms);
    // A lease must not keep a process alive that has nothing else to do.
    (t as { unref?: () => void }).unref?.();
    return t;
  },
  clear: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class InterestLease {
  /** The lease held now and the label it was written with. */
  private current: { id: string; version: number; label: string } | undefined;
  private timer: unknown;
  private stopped = false;
  /** Writes run one after another, so a renewal never races the stop's delete. */
  private readonly writes = new Serial();
  private label: string;
  /** Settles with the first write (start): rejected when it failed; the renewals go on trying. */
  ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly http: LeaseHttp,
    private readonly opts: InterestLeaseOptions,
  ) {
    this.label = opts.holder.label;
  }

  /** The id of the lease breadcrumb held now (undefined before the first write succeeded, and after stop). */
  get leaseId(): string | undefined {
    return this.current?.id;
  }

  /** Writes the first lease and schedules the renewals; the first write's failure is thrown, and the renewals try again. */
  start(): Promise<void> {
    this.ready = this.writes.run(() => this.write(true)).finally(() => this.schedule());
    return this.ready;
  }

  /** A new label (the runner's agent count changed): written at once. */
  relabel(label: string): Promise<void> {
    if (label === this.label) return Promise.resolve();
    this.label = label;
    return this.writes.run(() => this.write(false));
  }

  /** Deletes the lease; the extension stops capturing when no other lease is left. */
  stop(): Promise<void> {
    this.stopped = true;
    (this.opts.timers ?? realTimers).clear(this.timer);
    return this.writes.run(async () => {
      const lease = this.current;
      this.current = undefined;
      if (lease) await this.remove(lease.id);
    });
  }

  private schedule(): void {
    if (this.stopped) return;
    const timers = this.opts.timers ?? realTimers;
    this.timer = timers.set(() => {
      void this.writes.run(() => this.write(false)).finally(() => this.schedule());
    }, this.opts.renewMs ?? INTEREST_RENEW_MS);
  }

  /** Extends the lease held (with the current label), else writes a new one; a failed write keeps the last one, which may still be live. */
  private async write(first: boolean): Promise<void> {
    if (this.stopped) return;
    const { holder, extensionId, ttlSeconds } = this.opts;
    const body = interestLeaseBody({ id: holder.id, label: this.label }, extensionId ? { extension_id: extensionId } : undefined, ttlSeconds ?? INTEREST_TTL_SECONDS);
    try {
      const held = this.current;
      if (held) {
        try {
          // A plain renewal sends only the new TTL; a relabel sends the lease's new title and context too.
          const change = held.label === this.label ? { ttl_seconds: body.ttl_seconds } : { title: body.title, context: body.context, ttl_seconds: body.ttl_seconds };
          const b = await this.http.patch(held.id, change, { ifMatch: held.version });
          this.current = { id: b.id, version: b.version, label: this.label };
          return;
        } catch (err) {
          if (!isGone(err)) throw err;
          // Gone or changed under us: a new lease replaces it (the old one, if any is left, is deleted below).
        }
      }
      const b = await this.http.create(body);
      this.current = { id: b.id, version: b.version, label: this.label };
      if (held) await this.remove(held.id);
    } catch (err) {
      if (first) throw err;
      this.opts.onError?.(err);
    }
  }

  private async remove(id: string): Promise<void> {
    // Gone already (expired, deleted by hand) is what was wanted.
    await this.http.delete(id).catch((err: unknown) => {
      if ((err as { status?: number }).status !== 404) this.opts.onError?.(err);
    });
  }
}

/** A holder id for this process: `<kind>:<random uuid>`. */
export const newHolderId = (kind: string) => `${kind}:${globalThis.crypto.randomUUID()}`;
