import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { databaseTarget, describeDatabase } from "./database.ts";
import { ensureDevToken, stateDir } from "./dev-token.ts";
import { launchNats, type LaunchedNats } from "./nats-launcher.ts";
import { natsUrlFile } from "./nats-url.ts";
import { loadRunnerConfig, startRunner } from "@crumbs/runner";

export interface RunningStack {
  apiUrl: string;
  natsUrl: string;
  /** Only known when the stack started nats-server itself. */
  natsWsUrl: string | undefined;
  natsPid: number | undefined;
  database: string;
  token: string;
  tokenSource: "CRUMBS_TOKEN" | "created" | "reused";
  runner: "running";
  /** Resolves when a part died on its own (nats-server exiting), with what happened. */
  failed: Promise<string>;
  close(): Promise<void>;
}

/**
 * What `npm start` runs: the API on DATABASE_URL or PGlite, NATS_URL or a nats-server it spawns,
 * and the agent runner. Everything started here is stopped by
 * close(), in reverse order, and a failure half-way stops what was already running.
 */
export async function startStack(env: NodeJS.ProcessEnv, cwd: string, log: (line: string) => void): Promise<RunningStack> {
  const cleanups: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch((err: unknown) => log(`stop: ${(err as Error).message}`));
  };
  try {
    const tokenSource = env.CRUMBS_TOKEN ? "CRUMBS_TOKEN" : undefined;
    const dev = tokenSource ? undefined : await ensureDevToken(cwd);
    const token = env.CRUMBS_TOKEN || dev?.token || "";

    let nats: LaunchedNats | undefined;
    let natsUrl = env.NATS_URL;
    if (!natsUrl) {
      nats = await launchNats({ dir: join(stateDir(cwd), "nats") });
      const launched = nats;
      cleanups.push(() => launched.stop());
      natsUrl = nats.url;
      await writeFile(natsUrlFile(cwd), `${natsUrl}\n`);
      cleanups.push(() => rm(natsUrlFile(cwd), { force: true }));
    }

    const { loadApiConfig, startApi } = await import("@crumbs/api");
    const config = loadApiConfig({
      // A dev stack listens on loopback only, like its nats-server; HOST=0.0.0.0 opens it up.
      HOST: "127.0.0.1",
      CRUMBS_PGLITE_DIR: join(stateDir(cwd), "pg"),
      ...env,
      NATS_URL: natsUrl,
      CRUMBS_TOKEN: token,
    });
    const api = await startApi({ config });
    cleanups.push(() => api.close());

    const runnerEnv = { ...env, CRUMBS_URL: api.url, CRUMBS_TOKEN: token, NATS_URL: natsUrl };
    const runner = await startRunner({ ...loadRunnerConfig(runnerEnv), crumbsUrl: api.url, token, natsUrl });
    cleanups.push(() => runner.close());

    return {
      apiUrl: api.url,
      natsUrl,
      natsWsUrl: nats?.wsUrl,
      natsPid: nats?.pid,
      database: describeDatabase(databaseTarget(config)),
      token,
      tokenSource: tokenSource ?? (dev?.created ? "created" : "reused"),
      runner: "running",
      failed: nats ? nats.exited.then(() => "nats-server exited") : new Promise<string>(() => {}),
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
