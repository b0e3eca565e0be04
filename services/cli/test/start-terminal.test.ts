import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, waitFor } from "@crumbs/testkit";
import { binPath, cleanEnv, LiveCli, runCli } from "./run-cli.ts";

// What a person sees of `npm start` in a terminal, and what a pipe or a log collector gets; and the
// URL it records for the client commands run from the same directory (PORT from .env here, as a
// user sets it). The terminal is a real pty: util-linux `script`.

let cwd: string;
let port: number;
const stops: (() => Promise<unknown>)[] = [];

/** The environment of a user's shell: no LOG_LEVEL (vitest sets one for its own processes), no CRUMBS_URL. */
function userEnv(): NodeJS.ProcessEnv {
  const env = cleanEnv({});
  delete env.LOG_LEVEL;
  delete env.LOG_FORMAT;
  return env;
}

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "crumbs-start-tty-"));
  port = await freePort();
  await writeFile(join(cwd, ".env"), `PORT=${port}\nCRUMBS_DEFAULT_AGENT=off\n`);
});

afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

describe("crumbs start off a terminal", () => {
  it("logs JSON at info, records its URL in .crumbs/api-url, and client commands use it without CRUMBS_URL", { timeout: 240_000 }, async () => {
    const cli = new LiveCli(["start"], { env: userEnv(), cwd });
    stops.push(() => cli.stop("SIGKILL"));
    await cli.waitForOutput(/Ctrl-C to stop/, "stdout", 90_000);
    const url = `http://127.0.0.1:${port}`;
    expect(cli.stdout).toContain(`  API              ${url}\n`);
    expect((await readFile(join(cwd, ".crumbs", "api-url"), "utf8")).trim()).toBe(url);

    const list = await runCli(["list", "--schema", "note.v1"], { env: userEnv(), cwd });
    expect(list).toEqual({ code: 0, stdout: "", stderr: "no breadcrumbs match\n" });
    // Its request in the access log: one JSON object per line on stderr.
    await cli.waitForOutput(/"msg":"request"/, "stderr");
    const access = cli.stderr.split("\n").filter((l) => l.includes('"msg":"request"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(access).toContainEqual(expect.objectContaining({ level: 30, name: "api", path: "/v1/breadcrumbs", status: 200 }));

    expect(await cli.stop("SIGINT")).toBe(0);
    // Stopped: the client names that URL, not the default 8081 of another stack.
    const down = await runCli(["list"], { env: userEnv(), cwd });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`${url}`);
    expect(down.stderr).not.toContain("8081");
  });
});

describe("crumbs start on a terminal", () => {
  it("prints the banner and no access lines: pretty at warn", { timeout: 240_000 }, async () => {
    // `exec`: the pty's shell becomes crumbs, the foreground process that Ctrl-C on the pty stops.
    const child = spawn("script", ["-q", "-e", "-c", `exec ${process.execPath} ${binPath} start`, "/dev/null"], { cwd, env: userEnv() });
    let screen = "";
    child.stdout.on("data", (d: Buffer) => (screen += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    stops.push(() => (child.exitCode === null ? (child.kill("SIGKILL"), exited) : exited));
    await waitFor(() => screen.includes("Ctrl-C to stop"), { timeout: 90_000, message: `the banner; screen: ${screen.slice(-500)}` });
    expect(screen).toContain(`  API              http://127.0.0.1:${port}`);
    expect(screen).toContain("Try it: a first chat message, then the agent's answer:");

    const list = await runCli(["list", "--schema", "note.v1"], { env: userEnv(), cwd });
    expect(list.code).toBe(0);
    child.stdin.on("error", () => {}); // script gone already: the exit code below says what happened
    child.stdin.write("\x03"); // Ctrl-C, as typed
    expect(await exited).toBe(0);
    expect(screen).toContain("stopped");
    // The request above was answered and the process has ended: an access line would be on screen by now.
    expect(screen).not.toMatch(/request/);
    expect(screen).not.toMatch(/^\{"level"/m);
  });
});
