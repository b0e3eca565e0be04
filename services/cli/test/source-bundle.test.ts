import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binPath, cleanEnv } from "./run-cli.ts";

// In a clone the CLI runs its sources from a bundle it builds and keeps fresh itself
// (src/source-bundle.js): a command the bundle serves loads no TypeScript module, a saved source
// is in the next run, and a command that needs the API's package still runs through tsx.
const recorder = fileURLToPath(new URL("./fixtures/record-imports.mjs", import.meta.url));
const current = fileURLToPath(new URL("../node_modules/.cache/crumbs-cli/current.json", import.meta.url));
const source = fileURLToPath(new URL("../src/time.ts", import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "crumbs-bundle-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<{ code: number | null; stdout: string; modules: string[] }> {
  const file = join(dir, `${args.join("_")}-${Date.now()}.txt`);
  const child = spawn(process.execPath, ["--import", recorder, binPath, ...args], { env: cleanEnv({ CRUMBS_RECORD_IMPORTS: file }), cwd: dir });
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const modules = [...new Set((await readFile(file, "utf8")).trim().split("\n"))];
  return { code, stdout, modules };
}

const build = async () => (JSON.parse(await readFile(current, "utf8")) as { dir: string; commands: string[] });
const typeScript = (modules: string[]) => modules.filter((m) => /\.ts$|node_modules\/tsx\//.test(m));

describe("the CLI's source bundle", () => {
  it("runs a client command without loading TypeScript, and rebuilds when a source changes", async () => {
    const first = await run("replay", "--help");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("usage: crumbs replay");
    expect(typeScript(first.modules)).toEqual([]);
    const before = await build();
    expect(before.commands).toContain("replay");
    expect(first.modules.some((m) => m.includes(`/.cache/crumbs-cli/${before.dir}/`))).toBe(true);

    // A save: the file's time moves (its content is the same, so the build is too).
    const { atime, mtime } = await stat(source);
    const saved = new Date(Date.now() - 2_000);
    await utimes(source, atime, saved);
    try {
      const second = await run("replay", "--help");
      expect(second.code).toBe(0);
      const after = await build();
      expect(after.dir).not.toBe(before.dir);
      expect(second.modules.some((m) => m.includes(`/.cache/crumbs-cli/${after.dir}/`))).toBe(true);
      expect(typeScript(second.modules)).toEqual([]);
    } finally {
      await utimes(source, atime, mtime);
    }
  });

  it("runs a command that loads a TypeScript-only package through tsx", async () => {
    const agents = await run("agents", "--help");
    expect(agents.code).toBe(0);
    expect(agents.stdout).toContain("usage: crumbs agents");
    expect((await build()).commands).not.toContain("agents");
    expect(typeScript(agents.modules).length).toBeGreaterThan(0);
  });
});
