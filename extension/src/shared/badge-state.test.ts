import { describe, expect, it } from "vitest";
import { badgeFor } from "./badge-state.ts";

const at = "2026-01-01T00:00:00.000Z";
const connected = { api: { state: "connected" as const, at }, nats: { state: "connected" as const, at } };

describe("badgeFor", () => {
  it("connected: `on`; with actions awaiting confirmation: their count", () => {
    expect(badgeFor(connected, 0)).toMatchObject({ text: "on", title: "crumbs: connected to the API and NATS" });
    expect(badgeFor(connected, 2)).toMatchObject({ text: "2", title: "crumbs: connected; 2 actions await your confirmation in the side panel" });
    expect(badgeFor(connected, 150).text).toBe("99");
  });

  it("no API: `API` with the reason in the tooltip", () => {
    const b = badgeFor({ ...connected, api: { state: "error", detail: "cannot reach http://127.0.0.1:9", at } }, 0);
    expect(b).toMatchObject({ text: "API", title: "crumbs: no API (cannot reach http://127.0.0.1:9)" });
  });

  it("no NATS: `NATS`, also while connecting", () => {
    expect(badgeFor({ ...connected, nats: { state: "error", detail: "cannot connect", at } }, 0).text).toBe("NATS");
    expect(badgeFor({ ...connected, nats: { state: "connecting", at } }, 0).title).toMatch(/^crumbs: no NATS \(connecting\)/);
  });

  it("a waiting confirmation shows its count even when a connection is down", () => {
    const b = badgeFor({ ...connected, nats: { state: "disconnected", at } }, 1);
    expect(b.text).toBe("1");
    expect(b.title).toContain("1 action awaits your confirmation");
  });

  it("nothing configured: `set`", () => {
    expect(badgeFor({}, 0).text).toBe("set");
    expect(badgeFor({ nats: { state: "not_configured", at } }, 0).text).toBe("set");
  });
});
