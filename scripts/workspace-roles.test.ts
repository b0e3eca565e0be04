import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";
import type { IFlattenedRuleSet } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const { readWorkspaces, rolePatterns } = require("./workspace-roles.cjs") as typeof import("./workspace-roles.cjs");
const repo = fileURLToPath(new URL("..", import.meta.url));

const workspaces = [
  { dir: "agents/runner", name: "@crumbs/runner", role: "app" },
  { dir: "agents/sdk", name: "@crumbs/agent-sdk", role: "library" },
  { dir: "schemas", name: "@crumbs/schemas", role: "library" },
  { dir: "services/api", name: "@crumbs/api", role: "app" },
];

describe("rolePatterns", () => {
  const p = rolePatterns(workspaces);
  const matches = (pattern: string, path: string) => new RegExp(pattern).test(path);

  it("tells apps from libraries inside one folder by their role", () => {
    expect(matches(p.APPS, "agents/runner/src/index.ts")).toBe(true);
    expect(matches(p.LIBRARIES, "agents/runner/src/index.ts")).toBe(false);
    expect(matches(p.LIBRARIES, "agents/sdk/src/index.ts")).toBe(true);
    expect(matches(p.APPS, "agents/sdk/src/index.ts")).toBe(false);
  });

  it("matches a package's folder exactly, not a neighbour that starts alike", () => {
    expect(matches(p.LIBRARIES, "agents/sdk-extra/src/index.ts")).toBe(false);
    expect(matches(p.LIBRARIES, "schemasx/a.ts")).toBe(false);
    expect(matches(p.PACKAGE, "docs/a.ts")).toBe(false);
  });

  it("captures the package, so a rule can say 'its own folder' ($1)", () => {
    expect(new RegExp(p.PACKAGE).exec("services/api/src/a.ts")?.[1]).toBe("services/api");
  });

  it("names every package but the ones given", () => {
    expect(p.packagesBut("@crumbs/schemas")).toBe("^(agents/runner|agents/sdk|services/api)/");
    expect(() => p.packagesBut("@crumbs/nope")).toThrow("no workspace is named @crumbs/nope");
  });
});

describe("readWorkspaces", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it("reads a role for every workspace of this repository", () => {
    const found = readWorkspaces(repo);
    expect(found.find((w) => w.name === "@crumbs/agent-sdk")).toEqual({ dir: "agents/sdk", name: "@crumbs/agent-sdk", role: "library" });
    expect(found.find((w) => w.name === "@crumbs/runner")).toEqual({ dir: "agents/runner", name: "@crumbs/runner", role: "app" });
    expect(found.length).toBeGreaterThanOrEqual(13);
  });

  it("refuses a workspace whose package.json declares no role, naming it", async () => {
    const root = await mkdtemp(join(tmpdir(), "crumbs-roles-"));
    dirs.push(root);
    await write(root, "package.json", { workspaces: ["libs/*"] });
    await write(root, "libs/a/package.json", { name: "@x/a", crumbs: { role: "library" } });
    await write(root, "libs/b/package.json", { name: "@x/b" });
    expect(() => readWorkspaces(root)).toThrow('libs/b/package.json: "crumbs": { "role": ... } must be one of app, library (is undefined)');
  });
});

describe("the dependency rule of .dependency-cruiser.cjs", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it("rejects a library importing an app, both in agents/, and lets the app import the library", async () => {
    const config = require("../.dependency-cruiser.cjs") as { forbidden: IFlattenedRuleSet["forbidden"] };
    const rule = config.forbidden!.find((r) => r.name === "libraries-never-depend-on-apps")!;
    const root = await mkdtemp(join(tmpdir(), "crumbs-depcheck-"));
    dirs.push(root);
    await writeText(root, "agents/runner/src/loop.ts", 'import { sdk } from "../../sdk/src/sdk.ts";\nexport const loop = sdk;\n');
    await writeText(root, "agents/sdk/src/sdk.ts", "export const sdk = 1;\n");
    await writeText(root, "agents/sdk/src/bad.ts", 'import { loop } from "../../runner/src/loop.ts";\nexport const bad = loop;\n');

    const { output } = await cruise(["agents"], { baseDir: root, validate: true, ruleSet: { forbidden: [rule] } });
    const violations = typeof output === "string" ? [] : output.summary.violations;
    expect(violations.map((v) => [v.rule.name, v.from, v.to])).toEqual([
      ["libraries-never-depend-on-apps", "agents/sdk/src/bad.ts", "agents/runner/src/loop.ts"],
    ]);
  });
});

async function write(root: string, path: string, json: unknown) {
  await writeText(root, path, JSON.stringify(json));
}

async function writeText(root: string, path: string, text: string) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}
