import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "./errors.ts";
import { stateDir } from "./dev-token.ts";

/** `crumbs start` records the URLs of the nats-server it spawned here so other commands find it. */
export const natsUrlFile = (cwd: string) => join(stateDir(cwd), "nats", "url");

/** NATS_URL, else the nats-server `crumbs start` runs from this directory. */
export async function resolveNatsUrl(env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  if (env.NATS_URL) return env.NATS_URL;
  const recorded = await readFile(natsUrlFile(cwd), "utf8").catch(() => "");
  if (recorded.trim()) return recorded.trim();
  throw new CliError("no_nats_url", "set NATS_URL (for example nats://127.0.0.1:4222) to publish");
}
