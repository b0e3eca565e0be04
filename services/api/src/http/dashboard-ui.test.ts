import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardRoutes } from "./dashboard-ui.ts";

describe("/ui/ static files", () => {
  let root: string;
  let dist: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "crumbs-ui-"));
    dist = join(root, "dist");
    await mkdir(dist);
    await writeFile(join(dist, "index.html"), "<!doctype html><title>x</title>");
    await writeFile(join(dist, "app.js"), "export {}");
    await writeFile(join(root, "secret.js"), "outside");
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("serves index.html and the bundle with a same-origin-only CSP", async () => {
    const app = dashboardRoutes(dist);
    const index = await app.request("/ui/");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toMatch(/^text\/html/);
    expect(index.headers.get("content-security-policy")).toContain("connect-src 'self'");
    expect(await index.text()).toContain("<title>x</title>");
    const js = await app.request("/ui/app.js");
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    const bare = await app.request("/ui");
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/ui/");
  });

  it("answers 404 with the error shape for a missing file, a path outside dist, or a missing build", async () => {
    const app = dashboardRoutes(dist);
    for (const path of ["/ui/nope.js", "/ui/index.txt"]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe("not_found");
    }
    for (const path of ["/ui/../secret.js", "/ui/%2e%2e/secret.js", "/ui/..%2fsecret.js", "/ui/%2e%2e%2fsecret.js"]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain("outside");
    }
    const unbuilt = await dashboardRoutes(join(root, "missing")).request("/ui/");
    expect(unbuilt.status).toBe(404);
    expect(((await unbuilt.json()) as { message: string }).message).toMatch(/npm run build/);
  });
});
