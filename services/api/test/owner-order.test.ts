import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const locked = new Promise<void>((ready) => {
        void blocker.begin(async (tx) => {
          // What a write of alice's holds until it commits: her head row (store/owner-order.ts).
          await tx`select 1 from owner_heads where owner = 'alice' for update`;
          ready();
          await held;
        });
      });
      await locked;
      let aliceDone = false;
      const alice = post("alice", "waits").then((r) => ((aliceDone = true), r));
      const started = Date.now();
      const bob = await post("bob", "passes");
      expect(bob.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(2_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(aliceDone).toBe(false); // alice's write waits for alice's lock, and only for it
      release();
      expect((await alice).status).toBe(201);
    } finally {
      await blocker.end();
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
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 40; i++) expect((await post("alice", `w${w}-${i}`)).status).toBe(201);
      }),
    );
    writing = false;
    await reader;
    const stored = rowsOf<{ seq: number }>(
      await s.database.db.execute(sql`select seq::int as seq from breadcrumb_history where owner = 'alice' and seq > ${start} order by seq`),
    ).map((r) => r.seq);
    expect(seen).toEqual(stored);
    expect(seen.length).toBe(320);
    expect(new Set(seen).size).toBe(320);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  }, 60_000);
});
