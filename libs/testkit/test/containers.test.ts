import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { connect } from "nats";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { adminUrl, composeImage, NatsServer, testServices, waitFor } from "../src/index.ts";

const run = promisify(execFile);
/** Containers of `image` publishing host port `port`. */
const containersOn = async (image: string, port: string) =>
  (await run("docker", ["ps", "--filter", `ancestor=${image}`, "--filter", `publish=${port}`, "--format", "{{.ID}}"])).stdout.trim();

// Only in a CRUMBS_TEST_SERVICES=containers run: the proof that the suite's servers are the containers.
describe.skipIf(testServices !== "containers")("CRUMBS_TEST_SERVICES=containers", () => {
  it("runs the tests' Postgres in a container of the compose file's image", async () => {
    const port = new URL(adminUrl).port;
    expect(await containersOn(await composeImage("postgres"), port)).not.toBe("");
    const sql = postgres(adminUrl, { max: 1 });
    try {
      expect((await sql`select current_setting('server_version_num')::int / 10000 as major`)[0]!.major).toBe(15);
    } finally {
      await sql.end();
    }
  });

  it("runs each NatsServer in a container, kept on its ports and data across a kill and a start", async () => {
    const nats = await NatsServer.start({ websocket: true });
    try {
      expect(await containersOn(await composeImage("nats"), String(nats.port))).not.toBe("");
      const nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: "KEPT", subjects: ["kept.>"] });
      await nc.jetstream().publish("kept.one", new TextEncoder().encode("1"));
      await nats.stop();
      await nats.start();
      // The client reconnects to the same port and finds the stream's message on disk.
      const info = await waitFor(() => jsm.streams.info("KEPT"), { timeout: 30_000, message: "the stream after the restart" });
      expect(info.state.messages).toBe(1);
      await nc.close();
    } finally {
      await nats.dispose();
    }
  });
});
