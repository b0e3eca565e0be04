import { sql } from "drizzle-orm";
import type { SSEStreamingApi } from "hono/streaming";
import { BudgetExceededError } from "@crumbs/schemas";
import { rowsOf, type Database } from "../db/database.ts";
import type { KeyChanges } from "../keys/key-changes.ts";
import type { ChangeNotifier } from "../notifier.ts";
import { listEvents, type SelectorFilter } from "../store/index.ts";
import type { OwnerReadGate } from "../limits/owner-read-gate.ts";

/** Even without wake-ups (e.g. NATS down on another replica's writes) the stream re-reads history this often. */
const FALLBACK_POLL_MS = 2_000;

export interface StreamOptions {
  database: Database;
  notifier: ChangeNotifier;
  owner: string;
  selector?: SelectorFilter;
  /** Start after this seq; undefined = only what happens from now on. */
  after?: number;
  pingMs: number;
  /**
   * Whether the stream's token still authenticates; checked at least every KEY_CHECK_MS while the
   * stream lives and at once when `keyChanges` says a key was revoked. False ends the stream.
   */
  stillAuthenticated?: () => Promise<boolean>;
  keyChanges?: KeyChanges;
  /** Bytes of event JSON per page read (CRUMBS_PAGE_MAX_BYTES). */
  pageMaxBytes: number;
  /** The owner's read share: each page is read and written within it. */
  ownerReads: OwnerReadGate;
}

/**
 * A stream outlives the request that authenticated it, so its key is checked again: this often at
 * the most (a principal-cache hit, or one indexed read), on the loop's wake-ups, which come at least
 * every FALLBACK_POLL_MS; at once on a revocation. An expired key therefore ends its stream within
 * about 2 s, a revoked one at once (within the principal cache's TTL if a replica missed the NOTIFY).
 */
const KEY_CHECK_MS = 1_000;

/** The last frame of a stream whose token was revoked or expired; the client's reconnect then gets 401. */
const REVOKED_FRAME = {
  event: "error",
  data: JSON.stringify({ error: "unauthorized", message: "the token was revoked or has expired; this stream is closed" }),
};

/**
 * Backfill then live, with no gap and no duplicate: the stream always reads
 * history `seq > last sent`, and seq order is commit order, so whatever it
 * missed between wake-ups is simply the next page. Wake-ups come from local
 * commits and NATS (other replicas); they carry no data.
 */
export async function streamEvents(stream: SSEStreamingApi, opts: StreamOptions): Promise<void> {
  let wake: (() => void) | undefined;
  let pending = true;
  const poke = () => {
    pending = true;
    wake?.();
  };
  // Subscribe before reading the starting point, so nothing committed in between is missed.
  const unsubscribe = opts.notifier.subscribe(opts.owner, poke);
  let lastKeyCheck = Date.now();
  const unwatchKeys = opts.keyChanges?.subscribe(() => {
    lastKeyCheck = 0;
    poke();
  });
  stream.onAbort(poke);
  // A heartbeat still unwritten when the next is due means the client stopped reading (a dead
  // peer, a full socket buffer): close the stream and free its slot instead of holding it forever.
  let pingPending = false;
  const ping = setInterval(() => {
    if (pingPending) {
      stream.abort();
      poke();
      return;
    }
    pingPending = true;
    void stream.write(": ping\n\n").finally(() => (pingPending = false));
  }, opts.pingMs);
  try {
    let last = opts.after ?? (await currentSeq(opts.database, opts.owner));
    // The id-only frame moves the client's Last-Event-ID to where this stream starts, so a
    // client that disconnects before its first event resumes from here, not from "now".
    await stream.write(`: connected\nid: ${last}\n\n`);
    while (!stream.aborted && !stream.closed) {
      if (opts.stillAuthenticated && Date.now() - lastKeyCheck >= KEY_CHECK_MS) {
        lastKeyCheck = Date.now();
        if (!(await opts.stillAuthenticated())) {
          await stream.writeSSE(REVOKED_FRAME);
          return;
        }
      }
      if (!pending) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, FALLBACK_POLL_MS).unref();
        });
        wake = undefined;
        pending = true;
        continue;
      }
      pending = false;
      // One page at a time, in the owner's read share, and the next only once this one is written:
      // a write resolves when the server took the chunk off the stream, which it does only after
      // the socket drained the one before. So a stream from seq 0 over a large history holds one
      // page (CRUMBS_PAGE_MAX_BYTES) and one event in the socket, not the history.
      const release = await opts.ownerReads.acquire(opts.owner, opts.pageMaxBytes, { stream: true });
      try {
        if (stream.aborted || stream.closed) return;
        let page;
        try {
          // Each page has its own request budget (listEvents' default): a stream lives for hours.
          page = await listEvents(opts.database.db, opts.owner, { after: last, selector: opts.selector, limit: 500, maxBytes: opts.pageMaxBytes });
        } catch (e) {
          if (!(e instanceof BudgetExceededError)) throw e;
          // The selector costs more than the server spends on one page: say so and end the stream,
          // rather than skip events silently or keep the loop busy. Nothing after `last` was sent.
          await stream.writeSSE({ event: "error", data: JSON.stringify(e.toJSON()) });
          return;
        }
        for (const event of page.items) {
          if (stream.aborted) return;
          await stream.writeSSE({ id: String(event.seq), event: event.type, data: event.json });
        }
        if (page.next_after !== null) last = page.next_after;
        if (page.has_more) pending = true;
      } finally {
        release();
      }
    }
  } finally {
    clearInterval(ping);
    unsubscribe();
    unwatchKeys?.();
  }
}

async function currentSeq(database: Database, owner: string): Promise<number> {
  const [row] = rowsOf<{ seq: string }>(
    await database.db.execute(
      sql`select coalesce(max(seq), 0)::text as seq from breadcrumb_history where owner = ${owner}`,
    ),
  );
  return Number(row?.seq ?? 0);
}
