import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createErrorHandler } from "./errors.ts";

// The error mapper as a request meets it: a tiny app whose one route throws what the store or a
// driver would, and the answer a client gets.
function answerTo(thrown: unknown): Promise<Response> {
  const logged: unknown[] = [];
  const app = new Hono();
  app.get("/", () => {
    throw thrown;
  });
  app.onError(createErrorHandler((_msg, err) => logged.push(err)));
  return Promise.resolve(app.request("/"));
}

/** An error as a driver wraps a network failure: the code sits on its cause. */
const wrapped = (code: string) => new Error("query failed", { cause: Object.assign(new Error(`connect ${code}`), { code }) });

describe("the HTTP error mapper", () => {
  it.each(["EHOSTUNREACH", "ENETUNREACH", "ECONNREFUSED", "CONNECT_TIMEOUT", "57P01", "08006"])(
    "a connection failure with code %s answers 503 unavailable with Retry-After, not 500",
    async (code) => {
      const res = await answerTo(wrapped(code));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(await res.json()).toEqual({ error: "unavailable", message: "the database is unavailable, retry shortly" });
    },
  );

  it("a host that refused on every address (an AggregateError under the cause) answers 503", async () => {
    const refused = (family: string) => Object.assign(new Error(`connect ECONNREFUSED ${family}`), { code: "ECONNREFUSED" });
    const res = await answerTo(new Error("fetch failed", { cause: new AggregateError([refused("::1"), refused("127.0.0.1")]) }));
    expect(res.status).toBe(503);
  });

  it("a serialization failure or a full server answers 503: the same request can succeed later", async () => {
    for (const code of ["40001", "40P01", "53300"]) expect((await answerTo(wrapped(code))).status, code).toBe(503);
  });

  it("a data exception is the client's: 400", async () => {
    const res = await answerTo(wrapped("22P05"));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("anything else is a 500 with nothing of the error in the body", async () => {
    const res = await answerTo(new Error("secret detail"));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "internal", message: "internal error" });
  });
});
