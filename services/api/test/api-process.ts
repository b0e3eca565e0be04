import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort, waitFor } from "@crumbs/testkit";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * `crumbs api` as a real process, as docker compose runs it: its event loop is not the test's, so
 * a test can time it from outside (or kill it) honestly. Answers once it listens.
 */
export async function spawnApi(
  env: Record<string, string>,
  token: string,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, "services/cli/bin/crumbs.js", "api"], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", CRUMBS_TOKEN: token, CRUMBS_RELAY_POLL_MS: "100" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  // A bound on waiting, not a speed claim: tsx compiles the API on its first start, which took 41 s
  // on the shared 2-core machine at a load of 30.
  await waitFor(() => out.includes("listening") || child.exitCode !== null, { timeout: 120_000, message: "api up" });
  if (child.exitCode !== null) throw new Error(`crumbs api exited: ${out}`);
  return { child, url: `http://127.0.0.1:${port}` };
}
