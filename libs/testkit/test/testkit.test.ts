import { afterAll, describe, expect, it } from "vitest";
import { connect } from "nats";
import postgres from "postgres";
import { FakeOpenAI, NatsServer, createTestDatabase, launchChromium, waitFor } from "../src/index.ts";

describe("testkit", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it("starts a nats-server with JetStream and websocket, and restarts it on the same port", async () => {
    const nats = await NatsServer.start({ websocket: true });
    cleanups.push(() => nats.dispose());
    expect(nats.port).toBeGreaterThan(0);
    expect(nats.wsPort).toBeGreaterThan(0);
    const port = nats.port;
    const nc = await connect({ servers: nats.url });
    const jsm = await nc.jetstreamManager();
    expect((await jsm.getAccountInfo()).streams).toBe(0);
    await nc.close();
    await nats.restart();
    expect(nats.port).toBe(port);
    const nc2 = await connect({ servers: nats.url });
    await nc2.close();
  });

  it("starts without websocket too", async () => {
    const nats = await NatsServer.start();
    cleanups.push(() => nats.dispose());
    expect(nats.port).toBeGreaterThan(0);
    expect(() => nats.wsUrl).toThrow(/without websocket/);
  });

  it("creates and drops a fresh Postgres database", async () => {
    const db = await createTestDatabase();
    const sql = postgres(db.url, { max: 1 });
    const [row] = await sql`select current_database() as name`;
    expect(row?.name).toBe(db.name);
    await sql.end();
    await db.drop();
  });

  it("launches Chromium", async () => {
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.context.newPage();
    await page.setContent("<h1>hi</h1>");
    expect(await page.textContent("h1")).toBe("hi");
  });

  it("the fake model marks a request answered once its reply is sent, abandoned when the client hung up", async () => {
    const fake = await FakeOpenAI.start();
    cleanups.push(() => fake.close());
    const ask = (signal?: AbortSignal) =>
      fetch(`${fake.url}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages: [] }), signal });
    fake.setScript({ kind: "text", content: "hi" });
    expect((await ask()).status).toBe(200);
    await waitFor(() => fake.requests[0]?.ended, { message: "the first request ended" });
    expect(fake.requests[0]!.ended).toBe("answered");

    fake.setScript({ kind: "hang" });
    const ac = new AbortController();
    const hung = ask(ac.signal).catch((err: unknown) => err);
    await waitFor(() => fake.requests.length === 2, { message: "the second request recorded" });
    expect(fake.requests[1]!.ended).toBeUndefined();
    ac.abort();
    expect(await hung).toBeInstanceOf(Error);
    await waitFor(() => fake.requests[1]?.ended, { message: "the second request ended" });
    expect(fake.requests[1]!.ended).toBe("abandoned");
  });
});
