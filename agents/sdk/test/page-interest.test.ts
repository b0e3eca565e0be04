import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { INTEREST_SCHEMA, INTEREST_TTL_SECONDS } from "@crumbs/schemas";
import { startStack, type TestStack } from "../../runner/test/stack.ts";

// subscribe() holds a browser.context.interest.v1 lease while a subscription that can see page
// context lives (the extension captures only then), and deletes it when the subscription stops.

describe("subscribe holds a page-interest lease", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startStack();
  });
  afterAll(async () => s?.close());

  const leases = async () => (await s.client.list({ schema_name: INTEREST_SCHEMA })).items;

  it("a page-context subscription holds one, labelled after it, with the contract's TTL; stop deletes it", async () => {
    const sub = await s.client.subscribe({ schema_name: "browser.page.context.v1" }, { durable: "page-reader" });
    const [lease] = await waitFor(async () => ((await leases()).length === 1 ? leases() : undefined), { message: "lease written" });
    expect(lease!.context).toMatchObject({ holder: { label: "sdk: page-reader" } });
    expect(Date.parse(lease!.expires_at!) - Date.parse(lease!.updated_at)).toBe(INTEREST_TTL_SECONDS * 1000);
    await sub.stop();
    await waitFor(async () => (await leases()).length === 0, { message: "lease deleted on stop" });
  });

  it("none for a selector that cannot see the page, or with pageInterest: false; one on request", async () => {
    const other = await s.client.subscribe({ schema_name: "chat.message.v1" });
    const optedOut = await s.client.subscribe({ schema_name: "browser.page.context.v1" }, { pageInterest: false });
    // subscribe() decides before it returns, so once the asked-for lease is written the others had their chance.
    const asked = await s.client.subscribe({ schema_name: "chat.message.v1" }, { pageInterest: { label: "chat-with-page" } });
    await waitFor(async () => (await leases()).length > 0, { message: "lease written" });
    expect((await leases()).map((l) => (l.context as { holder: { label: string } }).holder.label)).toEqual(["sdk: chat-with-page"]);
    await Promise.all([other.stop(), optedOut.stop(), asked.stop()]);
    await waitFor(async () => (await leases()).length === 0, { message: "lease deleted" });
  });
});
