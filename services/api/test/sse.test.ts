import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, TOKEN, type TestStack } from "./stack.ts";

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Reads SSE frames from a fetch response until `until` says stop. */
async function readFrames(res: Response, until: (frames: Frame[]) => boolean, timeoutMs = 10_000): Promise<Frame[]> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  const frames: Frame[] = [];
  let buf = "";
  const deadline = Date.now() + timeoutMs;
  try {
    while (!until(frames)) {
      if (Date.now() > deadline) throw new Error(`timed out; frames so far: ${JSON.stringify(frames)}`);
      const { done, value } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const f: Frame = {};
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) f.comment = line.slice(1).trim();
          else {
            const [k, ...rest] = line.split(":");
            (f as Record<string, string>)[k!] = rest.join(":").replace(/^ /, "");
          }
        }
        frames.push(f);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return frames;
}

describe("SSE /v1/events/stream", () => {
  let s: TestStack;
  let url: string;
  beforeAll(async () => {
    s = await startStack({ CRUMBS_SSE_PING_MS: "100" });
    url = await s.serve();
  });
  afterAll(() => s?.dispose());

  const auth = { authorization: `Bearer ${TOKEN}` };
  const create = async (title: string, schema = "test.sse.v1") =>
    (
      await s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: schema, title, context: { title } } })
    ).json();

  it("backfills after a seq, then goes live, filtered by selector, and resumes from Last-Event-ID", async () => {
    await create("a");
    await create("skip me", "test.other.v1");
    await create("b");
    const selector = encodeURIComponent(JSON.stringify({ schema_name: "test.sse.v1" }));
    const res = await fetch(`${url}/v1/events/stream?after=0&selector=${selector}`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    setTimeout(() => void create("c"), 300);
    const frames = (await readFrames(res, (f) => f.filter((x) => x.data).length >= 3)).filter((f) => f.data);
    expect(frames.map((f) => JSON.parse(f.data!).title)).toEqual(["a", "b", "c"]);
    expect(frames.map((f) => f.event)).toEqual(["breadcrumb.created", "breadcrumb.created", "breadcrumb.created"]);
    for (const f of frames) expect(f.id).toBe(String(JSON.parse(f.data!).seq));

    // A reconnecting client sends Last-Event-ID: only what came after it.
    const resumed = await fetch(`${url}/v1/events/stream?after=0&selector=${selector}`, {
      headers: { ...auth, "last-event-id": frames[1]!.id! },
    });
    const again = (await readFrames(resumed, (f) => f.filter((x) => x.data).length >= 1)).filter((f) => f.data);
    expect(JSON.parse(again[0]!.data!).title).toBe("c");
  });

  it("without `after` sends only new events, and pings with a comment", async () => {
    await create("old");
    const res = await fetch(`${url}/v1/events/stream`, { headers: auth });
    setTimeout(() => void create("new"), 300);
    const frames = await readFrames(res, (f) => f.some((x) => x.data) && f.some((x) => x.comment === "ping"));
    const data = frames.filter((f) => f.data).map((f) => JSON.parse(f.data!).title);
    expect(data).toEqual(["new"]);
  });

  it("streams many writes in order with no gap or duplicate", async () => {
    const start = (await (await s.call("/v1/events?after=0&limit=1000")).json()).next_after as number;
    const res = await fetch(`${url}/v1/events/stream?after=${start}`, { headers: auth });
    const writes = Promise.all(Array.from({ length: 60 }, (_, i) => create(`burst ${i}`)));
    const frames = (await readFrames(res, (f) => f.filter((x) => x.data).length >= 60)).filter((f) => f.data);
    await writes;
    const seqs = frames.map((f) => Number(f.id));
    expect(new Set(seqs).size).toBe(60);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(seqs[59]! - seqs[0]!).toBe(59);
  });
  it("a selector that outgrows a page's work budget gets one error event and the stream ends", async () => {
    let deep: Record<string, unknown> = { leaf: "x" };
    for (let i = 0; i < 30; i++) deep = { a: deep, b: { c: i, d: [i, i + 1] } };
    const made = await s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: "test.sse.v1", title: "deep", context: { deep } } });
    expect(made.status).toBe(201);
    const selector = encodeURIComponent(JSON.stringify({ context_match: [{ path: "$.deep..*..*..*..*..*..*..*..*", op: "exists" }] }));
    const res = await fetch(`${url}/v1/events/stream?after=0&selector=${selector}`, { headers: auth });
    expect(res.status).toBe(200);
    // readFrames returns when the server ends the stream; a stream that stayed open would time out.
    const frames = await readFrames(res, () => false);
    const errors = frames.filter((f) => f.event === "error");
    expect(errors).toHaveLength(1);
    expect(JSON.parse(errors[0]!.data!)).toMatchObject({ error: "budget_exceeded", message: expect.stringContaining("selector stopped") });
    expect(frames.some((f) => f.event?.startsWith("breadcrumb."))).toBe(false);
  });

  const keyFor = async (body: Record<string, unknown>, token?: string) => {
    const res = await s.call("/v1/keys", { method: "POST", json: { scopes: ["read", "write", "subscribe", "admin"], ...body }, token });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; token: string };
  };
  const streamOf = async (token: string) => {
    // From the owner's first event: each owner here is new, so the stream holds exactly what the test wrote.
    const res = await fetch(`${url}/v1/events/stream?after=0`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return res;
  };
  const writeAs = (token: string, title: string) =>
    s.call("/v1/breadcrumbs", { method: "POST", token, json: { schema_name: "test.sse.v1", title, context: {} } });

  it("closes an open stream when its key is revoked, and the streams of the keys that key created", async () => {
    const parent = await keyFor({ owner: "sse-revoke" });
    const child = await keyFor({ name: "child" }, parent.token);
    const other = await keyFor({ owner: "sse-revoke" });
    const [p, c, o] = [await streamOf(parent.token), await streamOf(child.token), await streamOf(other.token)];
    // Each stream delivers: it is live before the revocation.
    expect((await writeAs(other.token, "before")).status).toBe(201);
    const ended = [p, c].map((res) => readFrames(res, (f) => f.some((x) => x.event === "error")));
    const kept = readFrames(o, (f) => f.filter((x) => x.data).length >= 2);
    expect((await s.call(`/v1/keys/${parent.id}`, { method: "DELETE" })).status).toBe(204);
    // readFrames returns once the server ends the stream (or an error frame came): an open one times out.
    for (const got of await Promise.all(ended)) {
      expect(got.filter((f) => f.data).map((f) => JSON.parse(f.data!).title ?? JSON.parse(f.data!).error)).toEqual(["before", "unauthorized"]);
      expect(got.at(-1)).toMatchObject({ event: "error" });
    }
    // A key of the same owner that the revoked one did not create keeps its stream.
    expect((await writeAs(other.token, "after")).status).toBe(201);
    expect((await kept).filter((f) => f.data).map((f) => JSON.parse(f.data!).title)).toEqual(["before", "after"]);
  });

  it("closes an open stream when its key expires", async () => {
    const key = await keyFor({ owner: "sse-expire", expires_in: 2 });
    const res = await streamOf(key.token);
    const frames = await readFrames(res, () => false);
    expect(frames.at(-1)).toMatchObject({ event: "error" });
    expect(JSON.parse(frames.at(-1)!.data!)).toMatchObject({ error: "unauthorized" });
    expect((await s.call("/v1/events/stream", { token: key.token })).status).toBe(401);
  });
});
