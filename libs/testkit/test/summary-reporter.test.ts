import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Runs a real vitest on the fixture project (test/reporter-fixtures) as a child process, one
// fixture file at a time, and reads the closing line that CI trusts. Then feeds the same output
// to .ci/summary.sh, the part of .ci/run that decides the last line and the exit code.
const run = promisify(execFile);
const repo = fileURLToPath(new URL("../../../", import.meta.url));
const fixtures = fileURLToPath(new URL("./reporter-fixtures", import.meta.url));
const vitestBin = join(repo, "node_modules/vitest/vitest.mjs");
const ciSummary = join(repo, ".ci/summary.sh");

interface Outcome {
  code: number;
  output: string;
}

async function exec(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: repo, env, timeout: 60_000 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw err;
    return { code: e.code, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

// The parent vitest's own variables would tell the child it runs inside a worker.
const childEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST")));

function runFixture(filter: string): Promise<Outcome> {
  return exec(process.execPath, [vitestBin, "run", "--root", fixtures, filter], childEnv);
}

function summaryOf(output: string): string | undefined {
  return output.split("\n").filter((l) => l.startsWith("tests: ")).at(-1);
}

describe("summary reporter on real vitest runs", () => {
  it("a passing file ends in 0 failed and exit 0", async () => {
    const r = await runFixture("passes");
    expect(summaryOf(r.output)).toBe("tests: 2 passed, 0 failed, 0 skipped, 0 flaky");
    expect(r.code).toBe(0);
  });

  it("a failing test counts once", async () => {
    const r = await runFixture("test-fails");
    expect(summaryOf(r.output)).toBe("tests: 1 passed, 1 failed, 0 skipped, 0 flaky");
    expect(r.code).not.toBe(0);
  });

  it("a beforeAll that throws is a failure, not two skipped tests", async () => {
    const r = await runFixture("before-all-throws");
    expect(summaryOf(r.output)).toBe("tests: 0 passed, 1 failed, 2 skipped, 0 flaky");
    expect(r.code).not.toBe(0);
  });

  it("an afterAll that throws is a failure even though its test passed", async () => {
    const r = await runFixture("after-all-throws");
    expect(summaryOf(r.output)).toBe("tests: 1 passed, 1 failed, 0 skipped, 0 flaky");
    expect(r.code).not.toBe(0);
  });

  it("a file that does not load is a failure", async () => {
    const r = await runFixture("load-error");
    expect(summaryOf(r.output)).toBe("tests: 0 passed, 1 failed, 0 skipped, 0 flaky");
    expect(r.code).not.toBe(0);
  });

  it("an unhandled rejection is a failure", async () => {
    const r = await runFixture("unhandled");
    expect(summaryOf(r.output)).toMatch(/^tests: 1 passed, [1-9]\d* failed, 0 skipped, 0 flaky$/);
    expect(r.code).not.toBe(0);
  });

  it("a test that passed only on its retry is flaky, not passed, and the run exits non-zero", async () => {
    const r = await runFixture("flaky");
    expect(summaryOf(r.output)).toBe("tests: 1 passed, 0 failed, 0 skipped, 1 flaky");
    expect(r.code).not.toBe(0);
  });

  it("a test whose assertions never ran fails", async () => {
    const r = await runFixture("no-assertion");
    expect(summaryOf(r.output)).toBe("tests: 0 passed, 1 failed, 0 skipped, 0 flaky");
    expect(r.code).not.toBe(0);
  });

  it("a filter that matches no file is a failure", async () => {
    const r = await runFixture("no-such-fixture");
    expect(summaryOf(r.output)).toBe("tests: 0 passed, 1 failed, 0 skipped, 0 flaky");
    expect(r.code).not.toBe(0);
  });
});

describe(".ci/summary.sh", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "ci-summary-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function summarize(output: string, status: number): Promise<Outcome> {
    const file = join(dir, `out-${Math.random().toString(36).slice(2)}.txt`);
    await writeFile(file, output);
    return exec(ciSummary, [file, String(status)]);
  }

  it("passes a green vitest run through with exit 0", async () => {
    const run = await runFixture("passes");
    const r = await summarize(run.output, run.code);
    expect(r.output.trim()).toBe("tests: 2 passed, 0 failed, 0 skipped, 0 flaky");
    expect(r.code).toBe(0);
  });

  it("a failing beforeAll ends in 1 failed and a non-zero exit", async () => {
    const run = await runFixture("before-all-throws");
    const r = await summarize(run.output, run.code);
    expect(r.output.trim()).toBe("tests: 0 passed, 1 failed, 2 skipped, 0 flaky");
    expect(r.code).not.toBe(0);
  });

  it("reads the line through ANSI colours and keeps the last one", async () => {
    const out = "\x1b[32mtests: 9 passed, 0 failed, 0 skipped, 0 flaky\x1b[0m\nmore\ntests: 3 passed, 0 failed, 1 skipped, 0 flaky\n";
    const r = await summarize(out, 0);
    expect(r.output.trim()).toBe("tests: 3 passed, 0 failed, 1 skipped, 0 flaky");
    expect(r.code).toBe(0);
  });

  it("fails on a flaky test even if npm exited 0", async () => {
    const run = await runFixture("flaky");
    const r = await summarize(run.output, 0);
    expect(r.output.trim()).toBe("tests: 1 passed, 0 failed, 0 skipped, 1 flaky");
    expect(r.code).toBe(1);
  });

  it("fails when the line reports failures even if npm exited 0", async () => {
    const r = await summarize("tests: 3 passed, 2 failed, 0 skipped, 0 flaky\n", 0);
    expect(r.output.trim()).toBe("tests: 3 passed, 2 failed, 0 skipped, 0 flaky");
    expect(r.code).toBe(1);
  });

  it("keeps npm's failing exit code even when the line says 0 failed", async () => {
    const r = await summarize("tests: 3 passed, 0 failed, 0 skipped, 0 flaky\n", 2);
    expect(r.code).toBe(2);
  });

  it("says so and fails when npm test stopped before vitest (no summary line)", async () => {
    const lint = await summarize("eslint: 3 problems\n", 1);
    expect(lint.output.trim()).toMatch(/^tests: 0 passed, 1 failed, 0 skipped, 0 flaky \(npm ci or npm test stopped/);
    expect(lint.code).toBe(1);
    const quiet = await summarize("", 0);
    expect(quiet.output.trim()).toMatch(/^tests: 0 passed, 1 failed/);
    expect(quiet.code).toBe(1);
  });
});
