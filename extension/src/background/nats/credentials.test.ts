import { describe, expect, it } from "vitest";
import { fetchNatsAuth, renewDelayMs } from "./credentials.ts";

const answer = (status: number, body: unknown): typeof fetch => async () => new Response(JSON.stringify(body), { status });
const opts = { apiUrl: "http://api", token: "t", extensionId: "abc" };

describe("fetchNatsAuth", () => {
  it("uses the minted credentials and the names they are bound to", async () => {
    const auth = await fetchNatsAuth(
      opts,
      answer(201, {
        owner: "A",
        jwt: "j",
        seed: "SU",
        expires_at: "2030-01-01T00:00:00.000Z",
        extension: { consumer: "crumbs-ext-A-abc", inbox_prefix: "_INBOX_A", stream: "CRUMBS" },
      }),
    );
    expect(auth).toMatchObject({ mode: "credentials", owner: "A", consumer: "crumbs-ext-A-abc", inboxPrefix: "_INBOX_A" });
  });

  it("connects without credentials when the API mints none (open setup), or the token may not ask", async () => {
    for (const status of [503, 403, 404]) {
      expect((await fetchNatsAuth(opts, answer(status, { error: "unavailable", message: "no seed" }))).mode).toBe("open");
    }
  });

  it("fails (and is retried) when the API is down or refuses the token", async () => {
    await expect(fetchNatsAuth(opts, answer(401, { error: "unauthorized" }))).rejects.toThrow(/refused/);
    await expect(fetchNatsAuth(opts, () => Promise.reject(new Error("ECONNREFUSED")))).rejects.toThrow(/cannot reach the crumbs API/);
  });
});

describe("renewDelayMs", () => {
  const now = new Date("2030-01-01T00:00:00Z");
  const at = (s: number) => new Date(now.getTime() + s * 1000);
  it("renews 5 minutes early for an hour's credentials, a fifth early for short ones, never in under 5 s", () => {
    expect(renewDelayMs(at(3600), now)).toBe(55 * 60_000);
    expect(renewDelayMs(at(60), now)).toBe(48_000);
    expect(renewDelayMs(at(2), now)).toBe(5_000);
    expect(renewDelayMs(undefined, now)).toBeUndefined();
  });
});
