import type { NatsConnection, Subscription } from "nats.ws";
import * as z from "@crumbs/schemas/zod-mini";
import { INTEREST_SCHEMA, interestAppliesTo, interestContextSchema } from "@crumbs/schemas/interest";
import { SUBJECT_PREFIX } from "@crumbs/schemas/nats-names";
import { looksLikeReferenceEvent } from "@crumbs/schemas/reference-event";
import type { Breadcrumb } from "../../shared/api-client.ts";
import { logActivity } from "../../shared/state/activity.ts";
import { interestState, liveLabels, nextEnd, pruned, type InterestState, type KnownLease } from "../../shared/state/interest.ts";

// The owner's browser.context.interest.v1 leases, as the worker learns them: the current ones from
// the API when a NATS session starts, then each change on the owner's interest subject, which the
// extension's NATS credentials let it read (SECURITY.md, "NATS"). The live ones go to storage
// (shared/state/interest.ts); `onChange` hears whether any is live, so the tracker captures at once
// when the first appears. A lease also ends by this browser's clock, and a timer notices that.

const leaseEventSchema = z.object({
  type: z.string(),
  id: z.string(),
  breadcrumb: z.optional(z.looseObject({ id: z.string(), context: z.unknown(), updated_at: z.string(), expires_at: z.optional(z.string()) })),
});

/**
 * A lease's end by this browser's clock: now plus the lifetime the API gave it (expires_at less
 * updated_at, both the server's clock), so a skewed browser clock does not end it early or late. A
 * lease listed later than it was written counts a little longer than it lives; the sweeper's
 * `deleted` event ends it on time. Undefined: not a lease for this extension (or no expiry).
 */
export function leaseOf(b: { context: unknown; updated_at: unknown; expires_at?: unknown }, extensionId: string, now: number): KnownLease | undefined {
  const ctx = interestContextSchema.safeParse(b.context);
  if (!ctx.success || !interestAppliesTo(ctx.data, extensionId) || typeof b.expires_at !== "string") return undefined;
  const lifetime = Date.parse(b.expires_at) - Date.parse(String(b.updated_at));
  if (!(lifetime > 0)) return undefined;
  return { holder_id: ctx.data.holder.id, label: ctx.data.holder.label, until: now + lifetime };
}

export interface InterestWatchOptions {
  owner: string;
  extensionId: string;
  list(): Promise<Breadcrumb[]>;
  getBreadcrumb(id: string): Promise<Breadcrumb>;
  /** Whether any lease is live now; called after every change, also a lease that ended. */
  onChange(live: boolean): void;
  now?: () => number;
}

export function watchInterest(nc: NatsConnection, opts: InterestWatchOptions): { stop(): Promise<void> } {
  const now = opts.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const changed = async (fn: (s: InterestState) => InterestState) => {
    const state = await interestState.update((s) => pruned(fn(s), now()));
    clearTimeout(timer);
    const end = nextEnd(state, now());
    // The timer only tells the tracker; the stored `until` is what counts, even for a stopped worker.
    if (end !== undefined && !stopped) timer = setTimeout(() => void changed((s) => s), end - now() + 5);
    opts.onChange(liveLabels(state, now()).length > 0);
  };
  /** What this session's events said, lease by lease (undefined: gone): the list must not undo it. */
  const heard = new Map<string, KnownLease | undefined>();
  const overlay = (leases: InterestState["leases"]) => {
    for (const [id, lease] of heard) {
      if (lease) leases[id] = lease;
      else delete leases[id];
    }
    return { leases };
  };
  const apply = (id: string, b: Breadcrumb | undefined, deleted: boolean) => {
    heard.set(id, !deleted && b ? leaseOf(b, opts.extensionId, now()) : undefined);
    return changed((s) => overlay({ ...s.leases }));
  };

  // Subscribe first, then list: a lease written in between is in one or the other.
  const sub: Subscription = nc.subscribe(`${SUBJECT_PREFIX}.${opts.owner}.*.${INTEREST_SCHEMA}`);
  void (async () => {
    for await (const msg of sub) {
      try {
        const ev = leaseEventSchema.parse(msg.json());
        const deleted = ev.type === "breadcrumb.deleted";
        const b = ev.breadcrumb ?? (deleted || !looksLikeReferenceEvent(ev) ? undefined : await opts.getBreadcrumb(ev.id));
        await apply(ev.id, b as Breadcrumb | undefined, deleted);
      } catch (e) {
        // Unreadable, or the API away for a reference event: the lease's next renewal brings it again,
        // and the activity log says why this one was missed.
        void logActivity("error", `interest lease event missed: ${e instanceof Error ? e.message : String(e)}`, false);
      }
    }
  })();
  void opts
    .list()
    .then((all) =>
      changed(() => {
        const leases: InterestState["leases"] = {};
        for (const b of all) {
          const lease = leaseOf(b, opts.extensionId, now());
          if (lease) leases[b.id] = lease;
        }
        return overlay(leases);
      }),
    )
    // The API away: the leases known from before keep their ends; the next session lists again.
    .catch((e: unknown) => {
      void logActivity("error", `interest leases not listed: ${e instanceof Error ? e.message : String(e)}`, false);
      return changed((s) => s);
    });

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      sub.unsubscribe();
    },
  };
}
