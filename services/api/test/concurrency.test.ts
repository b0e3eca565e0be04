import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { STREAM_NAME } from "@crumbs/schemas";
import { startStack, TOKEN, type TestStack } from "./stack.ts";

const WRITERS = 20;
const UPDATES = 50;

describe("optimistic concurrency over real HTTP", () => {
  let s: TestStack;
  let url: string;
  beforeAll(async () => {
    s = await startStack();
    url = await s.serve();
  });
  afterAll(() => s?.dispose());

  const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

  it(`${WRITERS} writers x ${UPDATES} read-modify-write updates lose nothing`, async () => {
    const res = await fetch(`${url}/v1/breadcrumbs`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ schema_name: "test.counter.v1", title: "counter", context: { count: 0, by: {} } }),
    });
    const { id } = (await res.json()) as { id: string };
    let conflicts = 0;

    const writer = async (w: number) => {
      let attempt = 0;
      for (let done = 0; done < UPDATES; ) {
        const cur = (await (await fetch(`${url}/v1/breadcrumbs/${id}`, { headers: auth })).json()) as {
          version: number;
          context: { count: number; by: Record<string, number> };
        };
        const by = { ...cur.context.by, [w]: (cur.context.by[w] ?? 0) + 1 };
        const patch = await fetch(`${url}/v1/breadcrumbs/${id}`, {
          method: "PATCH",
          headers: { ...auth, "if-match": `"${cur.version}"` },
          body: JSON.stringify({ context: { count: cur.context.count + 1, by } }),
        });
        if (patch.status === 200) {
          done++;
          attempt = 0;
          await patch.arrayBuffer();
        } else {
          expect(patch.status).toBe(412);
          await patch.arrayBuffer();
          conflicts++;
          // Exponential backoff with full jitter, as a real client retrying on 412 would do.
          attempt++;
          await new Promise((r) => setTimeout(r, Math.random() * Math.min(20, 2 ** attempt)));
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    const seconds = (performance.now() - started) / 1000;

    const final = (await (await fetch(`${url}/v1/breadcrumbs/${id}`, { headers: auth })).json()) as {
      version: number;
      context: { count: number; by: Record<string, number> };
    };
    const total = WRITERS * UPDATES + 1;
    expect(final.version).toBe(total);
    expect(final.context.count).toBe(WRITERS * UPDATES);
    expect(Object.values(final.context.by)).toEqual(Array(WRITERS).fill(UPDATES));
    expect(await s.count("breadcrumb_history")).toBe(total);

    const nc = await s.client();
    const jsm = await nc.jetstreamManager();
    await waitFor(async () => (await jsm.streams.info(STREAM_NAME)).state.messages === total, {
      timeout: 20_000,
      message: `${total} events in the stream`,
    });
    // Each row leaves the outbox in the relay's commit after its ack.
    await waitFor(async () => (await s.count("outbox")) === 0, { message: "the outbox emptied" });
    console.info(`[concurrency] ${WRITERS * UPDATES} updates in ${seconds.toFixed(1)} s, ${conflicts} conflicts (412) retried`);
  }, 240_000);
});
