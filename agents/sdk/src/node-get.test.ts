import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiResponseError, ApiTimeoutError, ApiUnreachableError } from "@crumbs/schemas/api-errors";
import { nodeGet } from "./node-get.ts";
import { CrumbsHttp } from "./http-client.ts";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const opts = (baseUrl: string, timeoutMs = 5_000) => ({ headers: {}, timeoutMs, name: "GET /v1/events", baseUrl });

describe("nodeGet", () => {
  it("gives the body as it streams, with the request's headers sent", async () => {
    const url = await serve((req, res) => res.end(`${req.headers.authorization}\n`));
    const res = await nodeGet(`${url}/v1/events`, { ...opts(url), headers: { authorization: "Bearer t" } });
    let text = "";
    for await (const chunk of res) text += String(chunk);
    expect(text).toBe("Bearer t\n");
  });

  it("rejects an error answer as the fetch client does: the contract's code, message and status", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "unauthorized", message: "bad token" }));
    });
    const err = await nodeGet(`${url}/v1/events`, opts(url)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiResponseError);
    expect(err).toMatchObject({ code: "unauthorized", message: "bad token", status: 401 });
  });

  it("names an API that cannot be reached, and one that does not answer in time", async () => {
    const url = await serve(() => {});
    const slow = await nodeGet(`${url}/v1/events`, opts(url, 50)).catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(ApiTimeoutError);
    server!.closeAllConnections();
    await new Promise((r) => server!.close(r));
    server = undefined;
    const gone = await nodeGet(`${url}/v1/events`, opts(url)).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ApiUnreachableError);
    expect((gone as Error).message).toBe(`cannot reach the crumbs API at ${url} (ECONNREFUSED)`);
  });
});

describe("CrumbsHttp.eventLines through node:http", () => {
  it("gives the lines as they stream, and rejects with the signal's reason when aborted mid-body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write('{"seq":1}\n');
    });
    const http = new CrumbsHttp({ url, token: "t" });
    const abort = new AbortController();
    const reason = new Error("stopped by the caller");
    const lines: string[] = [];
    const read = (async () => {
      for await (const batch of http.eventLines({}, { signal: abort.signal })) {
        lines.push(...batch.map((l) => Buffer.from(l).toString()));
        abort.abort(reason);
      }
    })();
    await expect(read).rejects.toBe(reason);
    expect(lines).toEqual(['{"seq":1}']);
  });
});
