import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { Scalar } from "@scalar/hono-api-reference";

/**
 * Scalar's standalone bundle, from node_modules: by default the page would load it from a CDN
 * (and fonts from Scalar's servers), but like the dashboard this page loads nothing from anywhere
 * but the API. The package exports no path to it, so it is found next to its main entry.
 */
const BUNDLE = join(dirname(fileURLToPath(import.meta.resolve("@scalar/api-reference"))), "browser", "standalone.js");

/**
 * The page's own inline script holds only its configuration; the bundle injects its styles, so
 * style-src needs 'unsafe-inline'. connect-src 'self': the page fetches /openapi.json, and its
 * "try it" client can call this API and nothing else.
 */
const CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** `/docs`: the API reference page over `/openapi.json`. Public, like the document. */
export function docsRoutes() {
  const app = new Hono();
  let bundle: Promise<Buffer> | undefined;
  const page = Scalar({
    url: "/openapi.json",
    cdn: "/docs/scalar.js",
    pageTitle: "crumbs API reference",
    withDefaultFonts: false,
    telemetry: false,
    // Scalar's hosted extras (its AI agent, the developer toolbar with deploy and share) talk to scalar.com.
    agent: { disabled: true },
    showDeveloperTools: "never",
  });
  app.get("/docs", async (c, next) => {
    c.header("Content-Security-Policy", CSP);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    return page(c, next);
  });
  app.get("/docs/scalar.js", async (c) => {
    bundle ??= readFile(BUNDLE);
    c.header("Content-Type", "text/javascript; charset=utf-8");
    c.header("Cache-Control", "public, max-age=3600");
    c.header("X-Content-Type-Options", "nosniff");
    return c.body(new Uint8Array(await bundle));
  });
  return app;
}
