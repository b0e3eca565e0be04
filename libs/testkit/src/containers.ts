import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Where the tests' Postgres and nats-server come from. `local` (the default): the machine's Postgres
 * on 127.0.0.1:5432 and a `nats-server` binary on PATH. `containers` (CRUMBS_TEST_SERVICES=containers):
 * testcontainers starts them from the images docker-compose.yml names, so the suite runs on a
 * machine with a Docker engine and neither installed.
 */
export const testServices: "local" | "containers" = process.env.CRUMBS_TEST_SERVICES === "containers" ? "containers" : "local";

// testcontainers' reaper (Ryuk) is an image of its own that a machine without a registry cannot
// pull; every test stops what it started, and CRUMBS_TEST_SERVICES=containers needs nothing else.
process.env.TESTCONTAINERS_RYUK_DISABLED ??= "true";

const composeFile = new URL("../../../docker-compose.yml", import.meta.url);

/** The image docker-compose.yml runs for a service (postgres, nats): the tests run the same one. */
export async function composeImage(service: "postgres" | "nats"): Promise<string> {
  const text = await readFile(composeFile, "utf8");
  const image = new RegExp(`^  ${service}:\\n(?:    .*\\n)*?    image: (\\S+)$`, "m").exec(text)?.[1];
  if (!image) throw new Error(`docker-compose.yml has no image for the ${service} service`);
  return image;
}

/** Whether a Docker engine answers (and why not), for tests that skip without one. */
export async function dockerEngine(): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  try {
    const { stdout } = await run("docker", ["version", "--format", "{{.Server.Version}}"], { timeout: 15_000 });
    return { ok: true, version: stdout.trim() };
  } catch (err) {
    const e = err as { code?: string; stderr?: string; message: string };
    if (e.code === "ENOENT") return { ok: false, reason: "no docker CLI on PATH" };
    return { ok: false, reason: `no Docker engine answers: ${(e.stderr || e.message).trim().split("\n")[0]}` };
  }
}
