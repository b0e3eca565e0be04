import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { databaseTarget, describeDatabase } from "./database.ts";
import { ensureDevToken, stateDir } from "./dev-token.ts";
import { launchNats, type LaunchedNats } from "./nats-launcher.ts";
import { natsUrlFile } from "./nats-url.ts";
import { loadRunnerEnv, loadStartRunner, type RunnerHandle } from "./runner-module.ts";

export interface RunningStack {
  apiUrl: string;
  natsUrl: string;
  /** Only known when the stack started nats-server itself. */
  natsWsUrl: string | undefined;
  natsPid: number | undefined;
  database: string;
  token: string;
  tokenSource: "CRUMBS_TOKEN" | "created" | "reused";
  runner: "running" | "not available";
  /** Resolves when a part died on its own (nats-server exiting), with what happened. */
  failed: Promise<string>;
  close(): Promise<void>;
}

/**
 * What `npm start` runs: the API on DATABASE_URL or PGlite, NATS_URL or a nats-server it spawns,
 * and the agent runner when @crumbs/runner provides one. Everything started here is stopped by
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

    const { loadApiConfig, openDatabase, startApi } = await import("@crumbs/api");
    const target = databaseTarget(env, cwd);
    const config = loadApiConfig({ ...env, NATS_URL: natsUrl, CRUMBS_TOKEN: token });
    // startApi opens DATABASE_URL itself; PGlite is opened here because the API has no env for it.
    const database = "pgliteDir" in target ? await openDatabase(target) : undefined;
    if (database) cleanups.push(() => database.close());
    const api = await startApi({ config, database });
    cleanups.push(() => api.close());

    let runner: RunnerHandle | undefined;
    const startRunner = await loadStartRunner();
    if (startRunner) {
      const runnerEnv = { ...env, CRUMBS_URL: api.url, CRUMBS_TOKEN: token, NATS_URL: natsUrl };
      runner = await startRunner({ ...(await loadRunnerEnv(runnerEnv)), crumbsUrl: api.url, token, natsUrl });
      const r = runner;
      cleanups.push(() => r.close());
    }

    return {
      apiUrl: api.url,
      natsUrl,
      natsWsUrl: nats?.wsUrl,
      natsPid: nats?.pid,
      database: describeDatabase(target),
      token,
      tokenSource: tokenSource ?? (dev?.created ? "created" : "reused"),
      runner: runner ? "running" : "not available",
      failed: nats ? nats.exited.then(() => "nats-server exited") : new Promise<string>(() => {}),
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
