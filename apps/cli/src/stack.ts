import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { databaseTarget, describeDatabase } from "./database.ts";
import { ensureDevToken, stateDir } from "./dev-token.ts";
import { ensureNatsKeys } from "./commands/keys-nats.ts";
import { launchNats, type LaunchedNats } from "./nats-launcher.ts";
import { natsUrlFile } from "./nats-url.ts";
import { loadRunnerConfig, startRunner } from "@crumbs/runner";

/** The keys of the nats-server `crumbs start` runs from `cwd`. */
export const natsAuthDirOf = (cwd: string) => join(stateDir(cwd), "nats", "auth");

export interface RunningStack {
  apiUrl: string;
  natsUrl: string;
  /** Only known when the stack started nats-server itself. */
  natsWsUrl: string | undefined;
  natsPid: number | undefined;
  /** Where the keys of the nats-server it started are (it is locked); undefined with NATS_URL. */
  natsAuthDir: string | undefined;
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
    let keys: Awaited<ReturnType<typeof ensureNatsKeys>> | undefined;
    const natsAuthDir = natsUrl ? undefined : natsAuthDirOf(cwd);
    if (!natsUrl) {
      // Locked like docker compose's: operator/account JWTs, keys made once under .crumbs/nats/auth.
      // The API signs its own user with the account seed and mints the extension's and agents'
      // credentials; the runner connects with runner.creds. No port takes an unauthenticated client.
      keys = await ensureNatsKeys(natsAuthDirOf(cwd));
      nats = await launchNats({
        dir: join(stateDir(cwd), "nats"),
        authConf: keys.authConf,
        // 4222 / 9222 when free; other ports on request (tests, a second stack on one machine).
        ...(env.CRUMBS_NATS_PORT ? { port: Number(env.CRUMBS_NATS_PORT) } : {}),
        ...(env.CRUMBS_NATS_WS_PORT ? { wsPort: Number(env.CRUMBS_NATS_WS_PORT) } : {}),
      });
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
      ...(keys ? { CRUMBS_NATS_ACCOUNT_SEED_FILE: keys.accountSeed, CRUMBS_NATS_ACCOUNT_SEED: undefined, NATS_CREDS: undefined } : {}),
    });
    const api = await startApi({ config });
    cleanups.push(() => api.close());

    const runnerEnv = { ...env, CRUMBS_URL: api.url, CRUMBS_TOKEN: token, NATS_URL: natsUrl, ...(keys ? { NATS_CREDS: keys.runnerCreds } : {}) };
    const runner = await startRunner({ ...loadRunnerConfig(runnerEnv), crumbsUrl: api.url, token, natsUrl });
    cleanups.push(() => runner.close());

    return {
      apiUrl: api.url,
      natsUrl,
      natsWsUrl: nats?.wsUrl,
      natsPid: nats?.pid,
      natsAuthDir,
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
