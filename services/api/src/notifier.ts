import { ownerSubjects } from "@crumbs/schemas";
import type { Subscription } from "nats";
import type { NatsLink } from "./nats/connect.ts";

type Listener = () => void;

/**
 * Wakes SSE streams when an owner's history may have grown: after a local
 * commit, and on that owner's NATS subjects for writes made by other replicas.
 * A wake-up carries no data; streams read history by seq, which cannot skip.
 */
export class ChangeNotifier {
  private readonly byOwner = new Map<string, { listeners: Set<Listener>; sub?: Subscription }>();

  constructor(private readonly nats?: NatsLink) {}

  notify(owner: string): void {
    const entry = this.byOwner.get(owner);
    if (!entry) return;
    for (const fn of entry.listeners) fn();
  }

  subscribe(owner: string, fn: Listener): () => void {
    let entry = this.byOwner.get(owner);
    if (!entry) {
      entry = { listeners: new Set() };
      if (this.nats && !this.nats.nc.isClosed()) {
        const current = entry;
        entry.sub = this.nats.nc.subscribe(ownerSubjects(owner), {
          callback: () => {
            for (const l of current.listeners) l();
          },
        });
      }
      this.byOwner.set(owner, entry);
    }
    entry.listeners.add(fn);
    return () => {
      const e = this.byOwner.get(owner);
      if (!e) return;
      e.listeners.delete(fn);
      if (e.listeners.size === 0) {
        e.sub?.unsubscribe();
        this.byOwner.delete(owner);
      }
    };
  }

  close(): void {
    for (const e of this.byOwner.values()) e.sub?.unsubscribe();
    this.byOwner.clear();
  }
}
