import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, Events, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsServer, waitFor } from "@crumbs/testkit";
import { keepHealthFile } from "../src/health-file.ts";

const EVERY_MS = 100;

// The health file is a timer nobody drives in the other tests: here it runs on its own, against a
// real nats-server that goes away and comes back, and the file's age is what a health check reads.
describe("the runner's health file", () => {
  let nats: NatsServer;
  let nc: NatsConnection;
  let dir: string;
  let stopTouching: (() => void) | undefined;

  beforeAll(async () => {
    nats = await NatsServer.start();
    dir = await mkdtemp(join(tmpdir(), "runner-health-"));
    nc = await connect({ servers: nats.url, reconnectTimeWait: 100, maxReconnectAttempts: -1 });
  });
  afterAll(async () => {
    stopTouching?.();
    await nc?.close();
    await nats?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  const mtime = async (path: string) => (await stat(path)).mtimeMs;

  it("stays fresh while connected, goes stale while NATS is down, and is fresh again after", async () => {
    const path = join(dir, "health");
    stopTouching = keepHealthFile(nc, path, EVERY_MS);
    const first = await waitFor(() => mtime(path), { message: "health file written" });
    await waitFor(async () => (await mtime(path)) > first, { message: "touched again on its timer" });

    const disconnected = (async () => {
      for await (const st of nc.status()) if (st.type === Events.Disconnect) return;
    })();
    await nats.stop();
    await disconnected;
    // Let any touch already under way land, then the file must age: many intervals, no touch.
    await new Promise((r) => setTimeout(r, EVERY_MS * 2));
    const atOutage = await mtime(path);
    await new Promise((r) => setTimeout(r, EVERY_MS * 10));
    expect(await mtime(path)).toBe(atOutage);
    expect(Date.now() - atOutage).toBeGreaterThanOrEqual(EVERY_MS * 10);

    await nats.start();
    await waitFor(async () => (await mtime(path)) > atOutage, {
      timeout: 15_000,
      message: "touched again after the reconnect",
    });
    expect(Date.now() - (await mtime(path))).toBeLessThan(EVERY_MS * 10);

    // Stopped (the runner shut down): the file goes stale for good.
    stopTouching();
    stopTouching = undefined;
    await new Promise((r) => setTimeout(r, EVERY_MS * 2));
    const atStop = await mtime(path);
    await new Promise((r) => setTimeout(r, EVERY_MS * 5));
    expect(await mtime(path)).toBe(atStop);
  });
});
