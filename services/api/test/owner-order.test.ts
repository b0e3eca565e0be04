import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { rowsOf } from "../src/db/database.ts";
import { startStack, type TestStack } from "./stack.ts";

// seq without a global lock (store/owner-order.ts): writes of one owner commit in seq order,
// writes of different owners never wait for each other.
let s: TestStack;
let keys: Record<string, string> = {};

beforeAll(async () => {
  s = await startStack({ CRUMBS_RATE_LIMIT: "off" });
  for (const owner of ["alice", "bob"]) {
    const res = await s.call("/v1/keys", { method: "POST", json: { owner, scopes: ["read", "write"] } });
    keys = { ...keys, [owner]: ((await res.json()) as { token: string }).token };
  }
}, 60_000);
afterAll(async () => s?.dispose());

const note = (title: string) => ({ schema_name: "note.v1", title, context: {} });
const post = (owner: string, title: string) =>
  s.call("/v1/breadcrumbs", { method: "POST", json: note(title), token: keys[owner] });

describe("seq without a global lock", () => {
  it("an owner whose commit is held up does not hold up another owner's write", async () => {
    expect((await post("alice", "first")).status).toBe(201); // alice has a head row now
    const blocker = postgres(s.pg.url, { max: 1, onnotice: () => {} });
    const observer = postgres(s.pg.url, { max: 1, onnotice: () => {} });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    try {
      const blockerPid = new Promise<number>((ready) => {
        void blocker.begin(async (tx) => {
          // What a write of alice's holds until it commits: her head row (store/owner-order.ts).
          await tx`select 1 from owner_heads where owner = 'alice' for update`;
          const [row] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
          ready(row!.pid);
          await held;
        });
      });
      const pid = await blockerPid;
      /** Backends waiting on a lock the blocker holds: alice's write, once it reached her head row. */
      const waiting = async () =>
        (await observer<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`)[0]!.n;
      let aliceDone = false;
      const alice = post("alice", "waits").then((r) => ((aliceDone = true), r));
      await waitFor(async () => (await waiting()) === 1, { message: "alice's write waiting on her head row's lock" });
      const bob = await post("bob", "passes");
      expect(bob.status).toBe(201);
      // bob committed while alice's write still waits for alice's lock, and only for it.
      expect(await waiting()).toBe(1);
      expect(aliceDone).toBe(false);
      release();
      expect((await alice).status).toBe(201);
      expect(await waiting()).toBe(0);
    } finally {
      release();
      await Promise.all([blocker.end(), observer.end()]);
    }
  });

  it("a reader paging /v1/events by after sees every event of an owner, in order, while 8 writers race", async () => {
    const seen: number[] = [];
    const first = (await (await s.call("/v1/events?limit=1000", { token: keys.alice })).json()) as { next_after: number | null };
    const start = first.next_after ?? 0;
    let after = start;
    let writing = true;
    const read = async () => {
      const res = await s.call(`/v1/events?after=${after}&limit=1000`, { token: keys.alice });
      const page = (await res.json()) as { items: { seq: number }[]; next_after: number | null };
      for (const e of page.items) seen.push(e.seq);
      if (page.next_after) after = page.next_after;
    };
    const reader = (async () => {
      while (writing) await read();
      await read();
    })();
    // The writers pause halfway until the reader has read some of their events, so its reads
    // provably overlap the writes rather than all landing before or after them.
    let seenBeforeSecondHalf = 0;
    const halfway = waitFor(() => seen.length > 0, { message: "the reader's first events" }).then(() => (seenBeforeSecondHalf = seen.length));
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 20; i++) expect((await post("alice", `w${w}-${i}`)).status).toBe(201);
        await halfway;
        for (let i = 20; i < 40; i++) expect((await post("alice", `w${w}-${i}`)).status).toBe(201);
      }),
    );
    writing = false;
    await reader;
    expect(seenBeforeSecondHalf).toBeGreaterThan(0);
    expect(seenBeforeSecondHalf).toBeLessThanOrEqual(160);
    const stored = rowsOf<{ seq: number }>(
      await s.database.db.execute(sql`select seq::int as seq from breadcrumb_history where owner = 'alice' and seq > ${start} order by seq`),
    ).map((r) => r.seq);
    expect(seen).toEqual(stored);
    expect(seen.length).toBe(320);
    expect(new Set(seen).size).toBe(320);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  }, 60_000);
});
