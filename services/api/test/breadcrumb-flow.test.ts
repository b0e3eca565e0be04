import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StringCodec, type Msg } from "nats";
import { waitFor } from "@crumbs/testkit";
import { REFERENCE_PAGE_CONTEXT } from "@crumbs/schemas";
import { startStack, type TestStack } from "./stack.ts";

const sc = StringCodec();
const page = structuredClone(REFERENCE_PAGE_CONTEXT);

describe("the living page-context breadcrumb", () => {
  let s: TestStack;
  const received: { subject: string; data: unknown; msgId: string | undefined }[] = [];

  beforeAll(async () => {
    s = await startStack();
    const nc = await s.client();
    nc.subscribe("crumbs.default.*.browser.page.context.v1", {
      callback: (_err, msg: Msg) =>
        received.push({ subject: msg.subject, data: JSON.parse(sc.decode(msg.data)), msgId: msg.headers?.get("Nats-Msg-Id") }),
    });
    await nc.flush();
  });
  afterAll(() => s?.dispose());

  it("creates, patches with If-Match, refuses a stale version, renders the llm view, keeps history, publishes both events", async () => {
    const created = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: {
        schema_name: "browser.page.context.v1",
        title: `Browser: ${page.title}`,
        tags: ["browser:context", "browser:active-tab", "extension:abc", `url:${page.domain}`],
        key: "browser.page.context:abc",
        context: page,
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("etag")).toBe('"1"');
    const b1 = await created.json();
    expect(b1).toMatchObject({ version: 1, owner: "default", key: "browser.page.context:abc", created_by: "admin" });

    const patched = await s.call(`/v1/breadcrumbs/${b1.id}`, {
      method: "PATCH",
      headers: { "if-match": '"1"' },
      json: { context: { ...page, viewport: { ...page.viewport, scrollY: 400 } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("etag")).toBe('"2"');
    expect(await patched.json()).toMatchObject({ version: 2, context: { viewport: { scrollY: 400 } } });

    const stale = await s.call(`/v1/breadcrumbs/${b1.id}`, {
      method: "PATCH",
      headers: { "if-match": '"1"' },
      json: { title: "lost update" },
    });
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({ error: "version_mismatch", details: { current_version: 2 } });

    const viewRes = await s.call(`/v1/breadcrumbs/${b1.id}?view=llm`);
    expect(viewRes.status).toBe(200);
    // The view changes with schema.def hints too, so its ETag is a hash of the view, not the version.
    expect(viewRes.headers.get("etag")).toMatch(/^W\/"[\w-]+"$/);
    const view = await viewRes.json();
    expect(view.summary).toBe(
      `The user is viewing '${page.title}' at ${page.domain}. The page has ${page.content.headings.length} sections and ${page.content.links.length} links. The snapshot lists ${page.snapshot.refs} elements that can be acted on by ref.`,
    );
    // Each fact once (the reference hints): the snapshot carries the text and what can be acted on.
    expect(view.snapshot.text).toBe(page.snapshot.text);
    expect(view.content).toBeUndefined();
    expect(view.dom).toBeUndefined();
    expect(JSON.stringify(view)).not.toContain(String(page.session.extensionId));

    const history = await (await s.call(`/v1/breadcrumbs/${b1.id}/history`)).json();
    expect(history.items.map((i: { version: number; event: string }) => [i.version, i.event])).toEqual([
      [1, "created"],
      [2, "updated"],
    ]);
    expect(history.items[1].seq).toBeGreaterThan(history.items[0].seq);

    await waitFor(() => received.length >= 2, { message: "both events on NATS" });
    expect(received.map((r) => r.subject)).toEqual([
      "crumbs.default.created.browser.page.context.v1",
      "crumbs.default.updated.browser.page.context.v1",
    ]);
    expect(received.map((r) => r.msgId)).toEqual([`${b1.id}:1:created`, `${b1.id}:2:updated`]);
    expect(received[1]!.data).toMatchObject({
      seq: history.items[1].seq,
      type: "breadcrumb.updated",
      id: b1.id,
      owner: "default",
      schema_name: "browser.page.context.v1",
      version: 2,
      breadcrumb: { version: 2 },
    });
    // The NATS payload is the same JSON /v1/events serves.
    const events = await (await s.call(`/v1/events?after=0`)).json();
    expect(events.items).toEqual(received.map((r) => r.data));
  });

  it("finds the living breadcrumb by key instead of creating a second one", async () => {
    const again = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: { schema_name: "browser.page.context.v1", title: "again", key: "browser.page.context:abc", context: page },
    });
    expect(again.status).toBe(409);
    const body = await again.json();
    expect(body).toMatchObject({ error: "key_conflict", details: { version: 2 } });
    const byKey = await (await s.call("/v1/breadcrumbs?key=browser.page.context:abc")).json();
    expect(byKey.items.map((b: { id: string }) => b.id)).toEqual([body.details.id]);
  });
});
