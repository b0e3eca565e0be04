/**
 * "Some key was revoked", in this process: a revocation made here, or another replica's heard
 * through Postgres's NOTIFY on KEYS_CHANNEL. The principal cache forgets every key, and each open
 * event stream checks its own key again and closes if it no longer authenticates. Carries no
 * data: every listener re-reads what it needs.
 */
export class KeyChanges {
  private readonly listeners = new Set<() => void>();

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  changed(): void {
    for (const fn of this.listeners) fn();
  }
}
