import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { extname, join, normalize } from "node:path";
import { freePort } from "@crumbs/testkit";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
};

/** Pages made on the fly (generated corpus, bundled React): path under /gen/ -> body. */
export type Generated = (name: string) => Promise<{ body: string; type: string } | undefined>;

export interface FixtureServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** http://localhost:<port2>: a second origin, for cross-origin iframes. */
  otherOrigin: string;
  close(): Promise<void>;
}

/**
 * Serves a fixtures folder on two origins. HTML may say {{OTHER_ORIGIN}} or {{ORIGIN}}, replaced per
 * request, so a page on one origin can frame a page of the other.
 */
export async function startFixtureServer(dir: string, generated: Generated): Promise<FixtureServer> {
  const [p1, p2] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${p1}`;
  const otherOrigin = `http://localhost:${p2}`;
  const servers: Server[] = [];
  for (const [port, self, other] of [
    [p1, origin, otherOrigin],
    [p2, otherOrigin, origin],
  ] as const) {
    const server = createServer(async (req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? "/", self).pathname);
      try {
        if (path.startsWith("/gen/")) {
          const gen = await generated(path.slice(5));
          if (!gen) throw new Error("not generated");
          res.writeHead(200, { "content-type": gen.type, "cache-control": "no-store" });
          res.end(gen.body.replaceAll("{{ORIGIN}}", self).replaceAll("{{OTHER_ORIGIN}}", other));
          return;
        }
        const file = normalize(join(dir, path === "/" ? "index.html" : path));
        if (!file.startsWith(dir)) throw new Error("outside");
        let body = await readFile(file, "utf8");
        body = body.replaceAll("{{ORIGIN}}", self).replaceAll("{{OTHER_ORIGIN}}", other);
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "text/plain", "cache-control": "no-store" });
        res.end(body);
      } catch {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
      }
    });
    await new Promise<void>((resolve) => server.listen(port, resolve));
    servers.push(server);
  }
  return {
    origin,
    otherOrigin,
    async close() {
      await Promise.all(
        servers.map((s) => new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        })),
      );
    },
  };
}
