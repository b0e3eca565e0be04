import type { Principal } from "../http/principal.ts";

interface Entry {
  principal: Principal;
  /** Epoch ms after which the entry is looked up again: the cache TTL, or the key's own expiry if sooner. */
  until: number;
}

/**
 * Authenticated API keys, by token hash, so a request costs no database round trip once its key
 * was seen. Revocation clears it at once in every replica (the revoke statement NOTIFYs
 * KEYS_CHANNEL and each process LISTENs); the TTL bounds what a missed notification can cost,
 * e.g. while the LISTEN connection is being re-established after a Postgres restart.
 * Unknown tokens are not cached: a new key's token was never seen before it was created, but a
 * negative entry would still be one more thing a flood of random tokens could grow.
 */
export class PrincipalCache {
  private readonly map = new Map<string, Entry>();

  constructor(
    private readonly opts: { ttlMs: number; maxEntries?: number; now?: () => number },
  ) {}

  get enabled(): boolean {
    return this.opts.ttlMs > 0;
  }

  get size(): number {
    return this.map.size;
  }

  get(tokenHash: string): Principal | undefined {
    const e = this.map.get(tokenHash);
    if (!e) return undefined;
    if (e.until <= this.now()) {
      this.map.delete(tokenHash);
      return undefined;
    }
    // Re-insert so Map order stays least-recently-used first.
    this.map.delete(tokenHash);
    this.map.set(tokenHash, e);
    return e.principal;
  }

  set(tokenHash: string, principal: Principal, keyExpiresAt?: Date | null): void {
    if (!this.enabled) return;
    const until = Math.min(this.now() + this.opts.ttlMs, keyExpiresAt ? keyExpiresAt.getTime() : Infinity);
    this.map.delete(tokenHash);
    this.map.set(tokenHash, { principal, until });
    const max = this.opts.maxEntries ?? 10_000;
    while (this.map.size > max) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.map.delete(oldest.value);
    }
  }

  /** Any key changed somewhere: drop everything (revocations are rare; a precise drop is not worth a second index). */
  clear(): void {
    this.map.clear();
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}
