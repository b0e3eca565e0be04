import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { waitFor } from "@crumbs/testkit";

export const binPath = fileURLToPath(new URL("../bin/crumbs.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real CLI in a child process, as a user runs it. */
export function runCli(args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string; input?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], { env: opts.env, cwd: opts.cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? "");
  });
}

/** A long-running CLI command whose output is read as it comes. */
export class LiveCli {
  stdout = "";
  stderr = "";
  readonly exited: Promise<number | null>;
  readonly child: ChildProcessWithoutNullStreams;

  constructor(args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string }) {
    this.child = spawn(process.execPath, [binPath, ...args], { env: opts.env, cwd: opts.cwd });
    this.child.stdout.on("data", (d: Buffer) => (this.stdout += d.toString()));
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  waitForOutput(pattern: RegExp, stream: "stdout" | "stderr" = "stdout", timeout = 30_000) {
    return waitFor(() => pattern.exec(this[stream]), {
      timeout,
      message: `${pattern} in ${stream}; stdout: ${this.stdout.slice(-500)} stderr: ${this.stderr.slice(-500)}`,
    });
  }

  async stop(signal: NodeJS.Signals = "SIGINT"): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** process.env without what would point the CLI at the machine's own services. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ["DATABASE_URL", "NATS_URL", "CRUMBS_URL", "CRUMBS_TOKEN", "PORT"]) delete env[k];
  return { ...env, ...extra };
}
