import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AckPolicy, connect, type NatsConnection } from "nats";
import { extensionConsumerName, STREAM_NAME } from "@crumbs/schemas";
import { waitFor } from "@crumbs/testkit";
import { act } from "./e2e/actions.ts";
import { startE2E, waitNatsConnected, type E2E } from "./e2e/stack.ts";

// Background work that fails and retries on its own is shown in the activity log the side panel
// shows, not swallowed ("The activity log" in docs/extension.md). The action subscription is made
// to fail for real: a push consumer already holds the extension's durable name, so the worker
// cannot pull from it until the consumer is gone.

interface ActivityEntry {
  kind: string;
  text: string;
  ok?: boolean;
}

let e: E2E;
let nc: NatsConnection;
beforeAll(async () => {
  e = await startE2E();
  nc = await connect({ servers: e.nats.url });
});
afterAll(async () => {
  await nc?.close();
  await e?.close();
});

const activity = async () => (await e.storage<ActivityEntry[] | undefined>("crumbs.activity")) ?? [];

describe("background failures in the activity log", () => {
  it("a failing action subscription shows in the activity log, then its recovery, and actions run again", async () => {
    const durable = extensionConsumerName("default", e.extensionId);
    const jsm = await nc.jetstreamManager();
    await jsm.consumers.add(STREAM_NAME, {
      durable_name: durable,
      deliver_subject: "nobody.listens.here",
      filter_subject: "crumbs.default.created.nothing.v1",
      ack_policy: AckPolicy.Explicit,
    });
    await e.configure({ allowlist: ["127.0.0.1"] });
    await waitNatsConnected(e, 20_000);

    const failed = await waitFor(
      async () => (await activity()).find((a) => a.kind === "connection" && a.text.startsWith("the action subscription failed, retrying: ")),
      { timeout: 20_000, message: "the activity log's line for the failed subscription" },
    );
    expect(failed.ok).toBe(false);

    await jsm.consumers.delete(STREAM_NAME, durable);
    const back = await waitFor(
      async () => (await activity()).find((a) => a.kind === "connection" && /^the action subscription works again after \d+ failures?$/.test(a.text)),
      { timeout: 30_000, message: "the activity log's line for the recovered subscription" },
    );
    expect(back.ok).toBe(true);

    const page = await e.open("page2.html");
    const r = await act(e, { action: "click", params: { selector: { role: "button", name: "Press me" } }, session: "s-recovered" }, 20_000);
    expect(r, JSON.stringify(r)).toMatchObject({ status: "ok" });
    expect(await page.evaluate(() => (window as { presses?: number }).presses ?? 0)).toBe(1);
  });
});
