import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { Hono } from "hono";
import { dashboardDist } from "@crumbs/dashboard";
import { errorBody } from "./errors.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/**
 * The page may talk to this origin only: no CDN, no third party, nothing inline. The token
 * lives in the page's sessionStorage, so a script from elsewhere would be a token leak.
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * `/ui/`: the dashboard's built static files (`@crumbs/dashboard`'s dist). Public like any
 * static page: it holds no data; every API call it makes carries the user's bearer token.
 */
export function dashboardRoutes(dist: string = dashboardDist) {
  const app = new Hono();
  app.get("/ui", (c) => c.redirect("/ui/", 301));
  app.get("/ui/*", async (c) => {
    const rel = c.req.path.slice("/ui/".length) || "index.html";
    const file = normalize(join(dist, rel));
    if (!file.startsWith(dist + sep)) return c.json(errorBody("not_found", "no such file"), 404);
    const type = TYPES[extname(file)];
    const body = type ? await readFile(file).catch(() => undefined) : undefined;
    if (!body) {
      const missing = rel === "index.html";
      const message = missing ? "the dashboard is not built: run `npm run build`" : `no file ${rel}`;
      return c.json(errorBody("not_found", message), 404);
    }
    c.header("Content-Type", type!);
    c.header("Content-Security-Policy", CSP);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    // index.html names the bundle without a hash, so nothing may be cached stale.
    c.header("Cache-Control", "no-cache");
    return c.body(body);
  });
  return app;
}
