import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient, parseResponse } from "./http.ts";

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      if (req.url === "/echo") {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, ifMatch: req.headers["if-match"], body }));
      } else if (req.url === "/chunked") {
        // Three writes with pauses: the body arrives chunked, in several TCP reads. Each pause starts
        // after the write before it: two timers set at once (20 and 40 ms) ran out of order when a
        // loaded machine stalled the loop past both (Node runs every expired timer of one duration's
        // list before the next list), so one response ended before its middle chunk ("héllo ld").
        res.write("héllo ");
        setTimeout(() => {
          res.write("wor");
          setTimeout(() => res.end("ld"), 20);
        }, 20);
      } else if (req.url === "/empty") {
        res.statusCode = 204;
        res.end();
      } else if (req.url === "/close") {
        res.setHeader("connection", "close");
        res.end("bye");
      } else {
        res.statusCode = 404;
        res.end("nope");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("HttpClient", () => {
  it("sends the token, headers and JSON body, and reads a Content-Length body", async () => {
    const http = new HttpClient(base, "tok", 2);
    try {
      const res = await http.request("PATCH", "/echo", { body: { a: "ü" }, headers: { "if-match": '"3"' } });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(res.body)).toEqual({ method: "PATCH", auth: "Bearer tok", ifMatch: '"3"', body: '{"a":"ü"}' });
    } finally {
      http.close();
    }
  });

  it("reads chunked bodies split across reads, empty bodies and closing responses, on two sockets shared by many requests", async () => {
    const http = new HttpClient(base, "tok", 2);
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => http.request("GET", ["/chunked", "/empty", "/close", "/missing"][i % 4]!)),
      );
      expect(answers.map((a) => [a.status, a.body])).toEqual(
        Array.from({ length: 3 }, () => [[200, "héllo world"], [204, ""], [200, "bye"], [404, "nope"]]).flat(),
      );
    } finally {
      http.close();
    }
  });

  it("waits for the whole response before it parses one", () => {
    const full = Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 5\r\nx-a: 1\r\nx-a: 2\r\n\r\nhello");
    expect(parseResponse(full.subarray(0, 20))).toBeUndefined();
    expect(parseResponse(full.subarray(0, full.length - 1))).toBeUndefined();
    expect(parseResponse(full)?.response).toEqual({ status: 200, headers: { "content-length": "5", "x-a": ["1", "2"] }, body: "hello" });
  });
});
