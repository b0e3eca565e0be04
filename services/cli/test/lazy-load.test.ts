import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binPath, cleanEnv } from "./run-cli.ts";

// `crumbs --help` and `--version` must start fast: they load the plain-JS command catalog, never
// tsx, a TypeScript module or a command (services/cli/README.md has the measured times). The hook
// records every module the real binary loads.
const recorder = fileURLToPath(new URL("./fixtures/record-imports.mjs", import.meta.url));
const HEAVY = /\/(apps\/(api|runner)|packages\/(agent-sdk|schemas|telemetry))\/|node_modules\/(nats|postgres|drizzle-orm|@electric-sql|hono|pino|prom-client|zod)\//;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "crumbs-lazy-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function modulesLoadedBy(...args: string[]): Promise<{ code: number | null; stdout: string; modules: string[] }> {
  const file = join(dir, `${args.join("_")}.txt`);
  const child = spawn(process.execPath, ["--import", recorder, binPath, ...args], {
    env: cleanEnv({ CRUMBS_RECORD_IMPORTS: file }),
    cwd: dir,
  });
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const modules = [...new Set((await readFile(file, "utf8")).trim().split("\n"))];
  return { code, stdout, modules };
}

describe("crumbs --help and --version load neither tsx nor any command", () => {
  it.each([["--help"], ["--version"]])("%s", async (flag) => {
    const run = await modulesLoadedBy(flag);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(flag === "--help" ? /^usage: crumbs <command>/ : /^crumbs \d+\.\d+\.\d+$/m);
    expect(run.modules.some((m) => m.endsWith("services/cli/src/commands/catalog.js"))).toBe(true); // the hook saw the CLI load
    expect(run.modules.filter((m) => HEAVY.test(m) || /node_modules\/tsx\/|\.ts$/.test(m))).toEqual([]);
  });

  it("a client command's --help loads that command, not the API or the runner", async () => {
    const run = await modulesLoadedBy("list", "--help");
    expect(run.stdout).toContain("usage: crumbs list");
    expect(run.modules.filter((m) => /\/apps\/(api|runner)\/|node_modules\/(postgres|drizzle-orm|@electric-sql|hono|pino|prom-client)\//.test(m))).toEqual([]);
  });
});
