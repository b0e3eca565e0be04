import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, NatsServer, spawnHeavyReader, waitFor, type HeavyReader, type TestDatabase } from "@crumbs/testkit";
import { spawnApi } from "./api-process.ts";

// One owner reading its large history as hard as it can must not stall another owner or change
// its answers (SECURITY.md "Bounded work"). The hostile owner keeps 40 breadcrumbs of ~700 KB
// (28 MB of JSON, a few MB in Postgres) and runs 4 paging loops of /v1/events?limit=1000, 2 loops
// of streamed NDJSON answers of the whole history, and 4 SSE streams from seq 0, over 4 of its keys. Before pages were bounded by bytes and read in the
// owner's share, the same shape (80 rows) gave the other owner 3 answers in 15 s (p50 5.7 s, a
// timeout, a 503) and the API 1.2 GB. Asserted: every answer of the calm owner is right (each
// request is answered, none refused), the API's peak RSS (VmHWM) is under 1 GiB, the hostile owner still gets its
// history whole and in order, and no page of more than one event passes the byte budget.
// Its p99 is printed here and measured against 1 s in the bench suite `hostile-reads`.
// The API and the hostile reader run as child processes, so the API's memory is its own and the
// calm owner's requests, timed here, never wait behind the reader's parsing of multi-MB pages.

const ADMIN = "hostile-reads-admin-0123456";
const BIG_ROWS = 40;
const BIG_ROW_CHARS = 700 * 1024;
const PAGE_MAX_BYTES = 4 * 1024 * 1024;
const CALM_ROUNDS = 25;
const GiB = 1024 ** 3;

describe("a hostile reader of its own large history", () => {
  let pg: TestDatabase;
  let nats: NatsServer;
  let api: { child: ChildProcess; url: string } | undefined;
  let heavy: HeavyReader | undefined;
  const hostileKeys: string[] = [];
  let calm = "";

  /**
   * One request on a connection of its own (no keep-alive): on a machine this loaded, a reused
   * socket can be one the server's 5 s keep-alive timer already closed (ECONNRESET), which would
   * say nothing about the API.
   */
  const call = (path: string, token: string, json?: unknown) =>
    new Promise<{ status: number; text(): Promise<string>; arrayBuffer(): Promise<void>; json(): Promise<unknown> }>((resolve, reject) => {
      const body = json === undefined ? undefined : JSON.stringify(json);
      const req = request(`${api!.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        agent: false,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }) },
      });
      req.on("error", reject);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, text: async () => text, arrayBuffer: async () => {}, json: async () => JSON.parse(text) as unknown });
        });
      });
      req.end(body);
    });
  const key = async (owner: string, scopes: string[]) => {
    const res = await call("/v1/keys", ADMIN, { owner, scopes, name: owner });
    expect(res.status).toBe(201);
    return ((await res.json()) as { token: string }).token;
  };
  /** Peak resident set of the API process so far, from the kernel. */
  const peakRss = async () => {
    const status = await readFile(`/proc/${api!.child.pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
  };

  beforeAll(async () => {
    [pg, nats] = await Promise.all([createTestDatabase("crumbs_hostile_reads"), NatsServer.start()]);
    api = await spawnApi({ DATABASE_URL: pg.url, NATS_URL: nats.url, CRUMBS_PAGE_MAX_BYTES: String(PAGE_MAX_BYTES) }, ADMIN);
    for (let i = 0; i < 4; i++) hostileKeys.push(await key("hostile", ["read", "write", "subscribe"]));
    calm = await key("calm", ["read", "write"]);
    // Compressible like real page text: a 1 KB block repeated, a different one per row.
    for (let i = 0; i < BIG_ROWS; i++) {
      const block = Array.from({ length: 64 }, (_, j) => `row ${i} line ${j} `).join("").padEnd(1024, ".");
      const res = await call("/v1/breadcrumbs", hostileKeys[0]!, {
        schema_name: "test.big.v1",
        title: `big ${i}`,
        context: { text: block.repeat(Math.ceil(BIG_ROW_CHARS / 1024)).slice(0, BIG_ROW_CHARS) },
      });
      expect(res.status).toBe(201);
      await res.arrayBuffer();
    }
  }, 180_000);

  afterAll(async () => {
    await heavy?.stop();
    if (api && api.child.exitCode === null && api.child.signalCode === null) {
      await new Promise<void>((resolve) => {
        api!.child.once("exit", () => resolve());
        api!.child.kill("SIGKILL");
      });
    }
    await nats?.dispose();
    await pg?.drop();
  });

  it("leaves every answer of another owner right and the API under 1 GiB", async () => {
    const mine = new Map<string, { title: string; context: unknown }>();
    const latencies: number[] = [];
    const timed = async (path: string, json?: unknown) => {
      const t = performance.now();
      const res = await call(path, calm, json);
      const body = await res.text();
      latencies.push(performance.now() - t);
      return { status: res.status, body };
    };
    /** One round of what a calm owner does: write, read it back, list, replay its events. */
    const round = async (n: number) => {
      const context = { n, note: `calm ${n}` };
      const created = await timed("/v1/breadcrumbs", { schema_name: "test.calm.v1", title: `calm ${n}`, context });
      expect(created.status, created.body).toBe(201);
      const { id } = JSON.parse(created.body) as { id: string };
      mine.set(id, { title: `calm ${n}`, context });

      const read = await timed(`/v1/breadcrumbs/${id}`);
      expect(read.status, read.body).toBe(200);
      expect(JSON.parse(read.body)).toMatchObject({ id, owner: "calm", title: `calm ${n}`, context, version: 1 });

      const list = await timed("/v1/breadcrumbs?limit=500");
      expect(list.status, list.body).toBe(200);
      const items = (JSON.parse(list.body) as { items: { id: string; owner: string; title: string; context: unknown }[] }).items;
      expect(items.map((b) => b.id).sort()).toEqual([...mine.keys()].sort());
      for (const b of items) expect({ title: b.title, context: b.context }).toEqual(mine.get(b.id));

      const events = await timed("/v1/events?after=0&limit=1000");
      expect(events.status, events.body).toBe(200);
      const page = JSON.parse(events.body) as { items: { id: string; seq: number; breadcrumb: { owner: string } }[]; has_more: boolean };
      expect(page.items.map((e) => e.id)).toEqual([...mine.keys()]);
      expect(page.items.every((e) => e.breadcrumb.owner === "calm")).toBe(true);
      expect(page.has_more).toBe(false);
    };

    const p99 = () => [...latencies].sort((a, b) => a - b)[Math.ceil(latencies.length * 0.99) - 1] ?? 0;
    // Alone first: the same rounds with no hostile reader (the figure the report compares to).
    for (let n = 0; n < 3; n++) await round(n);
    const aloneP99 = p99();
    latencies.length = 0;

    heavy = await spawnHeavyReader({ url: api!.url, tokens: hostileKeys, loops: 4, ndjsonLoops: 2, streams: 4, events: BIG_ROWS });
    // Measure only once the hostile owner is reading: every loop has had pages, a stream caught up.
    await waitFor(() => heavy!.stats.pages >= 8 && heavy!.stats.streamsCaughtUp >= 1, {
      timeout: 120_000,
      message: "the hostile reader paging and streaming",
    });
    const pagesBefore = heavy.stats.pages;
    // At least CALM_ROUNDS rounds, and on until the hostile owner has had two more pages answered, so
    // the calm owner's rounds provably ran between the hostile owner's pages (a page is ~3.5 MB).
    for (let n = 3; n < 3 + CALM_ROUNDS || heavy.stats.pages - pagesBefore < 2; n++) await round(n);
    const pagesDuring = heavy.stats.pages - pagesBefore;
    // The hostile owner is bounded, not broken: one of its loops reads its whole history, page by
    // page. A pass is ~16 pages of ~3.5 MB shared by four loops; the calm rounds alone can end
    // before any loop's first pass does (14 pages in all seen at load 2), so wait for one.
    await waitFor(() => heavy!.stats.completePasses + heavy!.stats.brokenPasses >= 1 && heavy!.stats.streamedPasses >= 1, {
      timeout: 240_000,
      message: "a whole pass of the hostile owner's history",
    });
    const stats = await heavy.stop();
    heavy = undefined;
    const peak = await peakRss();
    console.log(
      `hostile-reads: calm p99 ${Math.round(p99())} ms (alone ${Math.round(aloneP99)} ms) over ${latencies.length} requests; ` +
        `API peak RSS ${Math.round(peak / 2 ** 20)} MiB; hostile pages ${stats.pages} (${pagesDuring} during), passes ${stats.completePasses}, ` +
        `streamed answers ${stats.streamedAnswers} (${stats.streamedPasses} passes), streams caught up ${stats.streamsCaughtUp}, refused ${JSON.stringify(stats.refused)}, largest page ${stats.largestPage} B`,
    );

    expect(pagesDuring).toBeGreaterThan(0);
    // The latency goal (p99 under 1 s) is the bench's to measure (bench/suites/hostile-reads.ts):
    // on this shared 2-core machine at a load of 25 the calm owner's p99 alone was already 272 ms.
    expect(peak).toBeLessThan(GiB);
    // Its history came whole, in order.
    expect(stats.brokenPasses).toBe(0);
    expect(stats.completePasses).toBeGreaterThan(0);
    expect(stats.streamedPasses).toBeGreaterThan(0);
    // Its pages wait their turn (at worst a 429 past the queue), never fail: no 5xx.
    expect(Object.keys(stats.refused).filter((k) => /5\d\d/.test(k))).toEqual([]);
    // ~700 KB rows: 5 fit a 4 MiB page; the event envelopes add a few hundred bytes each.
    expect(stats.largestMultiEventPage).toBeLessThanOrEqual(PAGE_MAX_BYTES + 64 * 1024);
  }, 420_000);
});
