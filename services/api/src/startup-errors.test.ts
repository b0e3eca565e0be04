import { describe, expect, it } from "vitest";
import { databaseStartupError, listenStartupError, natsStartupError } from "./startup-errors.ts";

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe("start-up errors name the variable and the fix", () => {
  it("NATS refused", () => {
    expect(String((natsStartupError("nats://127.0.0.1:1", coded("CONNECTION_REFUSED")) as Error).message)).toBe(
      "cannot reach NATS at nats://127.0.0.1:1 (NATS_URL): connection refused. Start nats-server or set NATS_URL.",
    );
  });

  it("Postgres refused, through drizzle's cause chain, without the password", () => {
    const err = new Error("Failed query", { cause: coded("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:1") });
    const msg = (databaseStartupError("postgres://u:secret@127.0.0.1:1/db", err) as Error).message;
    expect(msg).toMatch(/^cannot reach Postgres at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db \(DATABASE_URL\): connection refused\. Start Postgres or set DATABASE_URL/);
    expect(msg).not.toContain("secret");
  });

  it("a missing database names DATABASE_URL", () => {
    expect((databaseStartupError("postgres://h/nope", coded("3D000", 'database "nope" does not exist')) as Error).message).toContain(
      "(DATABASE_URL): the database does not exist",
    );
  });

  it("a busy port names PORT", () => {
    expect((listenStartupError("0.0.0.0", 8081, coded("EADDRINUSE")) as Error).message).toContain("(PORT): the port is in use");
  });

  it("other errors pass through unchanged", () => {
    const err = coded("SOMETHING_ELSE");
    expect(natsStartupError("nats://x", err)).toBe(err);
    expect(databaseStartupError("postgres://x/y", err)).toBe(err);
    expect(listenStartupError("h", 1, err)).toBe(err);
  });
});
