import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError, type Logger } from "@crumbs/telemetry";
import { databaseTarget, describeDatabase } from "./database.ts";
import { installDefaultAgent, type DefaultAgent } from "./default-agent.ts";
import { ensureDevToken, recordApiUrl, stateDir } from "./dev-token.ts";
import { ensureNatsKeys } from "./commands/keys-nats.ts";
import { natsAuthDirOf } from "./nats-key-files.ts";
import { launchNats, type LaunchedNats } from "./nats-launcher.ts";
import { natsUrlFile } from "./nats-url.ts";

export interface RunningStack {
  apiUrl: string;
  natsUrl: string;
  /** Only known when the stack started nats-server itself. */
  natsWsUrl: string | undefined;
  natsMonitorUrl: string | undefined;
  natsPid: number | undefined;
  /** Where the keys of the nats-server it started are (it is locked); undefined with NATS_URL. */
  natsAuthDir: string | undefined;
  database: string;
  token: string;
  tokenSource: "CRUMBS_TOKEN" | "created" | "reused";
  runner: "running";
  /** The page assistant `crumbs start` installs unless CRUMBS_DEFAULT_AGENT=off. */
  agent: DefaultAgent;
  /** Resolves when a part died on its own (nats-server exiting), with what happened. */
  failed: Promise<string>;
  close(): Promise<void>;
}

/** A port variable of `crumbs start`; a bad one stops it naming the variable. */
function portVar(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError({ variable: name, message: `"${raw}" is not a port (0-65535)` });
  return port;
}

/**
 * What `npm start` runs: the API on DATABASE_URL or PGlite, NATS_URL or a nats-server it spawns,
 * and the agent runner, in one process with one logger and one /metrics (the API's, with the
 * runner's series). Everything started here is stopped by close(), in reverse order, and a failure
 * half-way stops what was already running.
 */
export async function startStack(
  env: NodeJS.ProcessEnv,
  cwd: string,
  log: (line: string) => void,
  opts: { logger?: Logger } = {},
): Promise<RunningStack> {
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
      // 4222 / 9222 when free; other ports on request (tests, a second stack on one machine). No
      // monitoring port unless CRUMBS_NATS_MONITOR_PORT asks for one (see launchNats).
      const ports = {
        port: portVar(env, "CRUMBS_NATS_PORT"),
        wsPort: portVar(env, "CRUMBS_NATS_WS_PORT"),
        monitorPort: portVar(env, "CRUMBS_NATS_MONITOR_PORT"),
      };
      const natsDir = join(stateDir(cwd), "nats");
      const { resolverConfig } = await import("@crumbs/api");
      nats = await launchNats({
        dir: natsDir,
        authConf: keys.authConf,
        resolver: resolverConfig(join(natsDir, "jwt")),
        ...Object.fromEntries(Object.entries(ports).filter(([, v]) => v !== undefined)),
      });
      const launched = nats;
      cleanups.push(() => launched.stop());
      natsUrl = nats.url;
      await writeFile(natsUrlFile(cwd), `${natsUrl}\n`);
      cleanups.push(() => rm(natsUrlFile(cwd), { force: true }));
    }

    const [{ loadApiConfig, startApi }, { loadRunnerConfig, startRunner }, { defaultLogger, Registry }] = await Promise.all([
      import("@crumbs/api"),
      import("@crumbs/runner"),
      import("@crumbs/telemetry"),
    ]);
    const logger = opts.logger ?? defaultLogger();
    const config = loadApiConfig({
      // A dev stack listens on loopback only, like its nats-server; HOST=0.0.0.0 opens it up.
      HOST: "127.0.0.1",
      CRUMBS_PGLITE_DIR: join(stateDir(cwd), "pg"),
      ...env,
      NATS_URL: natsUrl,
      CRUMBS_TOKEN: token,
      ...(keys ? { CRUMBS_NATS_ACCOUNT_SEED_FILE: keys.accountSeed, CRUMBS_NATS_ACCOUNT_SEED: undefined, NATS_CREDS: undefined } : {}),
    });
    // The runner's series on the API's /metrics: one process, one place to scrape.
    const runnerMetrics = new Registry();
    const api = await startApi({ config, logger: logger.child({ name: "api" }), extraMetrics: [runnerMetrics] });
    cleanups.push(() => api.close());
    await recordApiUrl(cwd, api.url);

    const runnerEnv = { ...env, CRUMBS_URL: api.url, CRUMBS_TOKEN: token, NATS_URL: natsUrl, ...(keys ? { NATS_CREDS: keys.runnerCreds } : {}) };
    const runnerConfig = loadRunnerConfig(runnerEnv);
    const runner = await startRunner({
      ...runnerConfig,
      crumbsUrl: api.url,
      token,
      natsUrl,
      // Its series are on the API's /metrics; RUNNER_METRICS_PORT is for `crumbs runner` alone.
      metricsPort: undefined,
      metricsRegistry: runnerMetrics,
      logger: logger.child({ name: "runner" }),
    });
    cleanups.push(() => runner.close());

    const agent = await installDefaultAgent({ env, cwd, apiUrl: api.url, token, endpoints: runnerConfig });

    return {
      apiUrl: api.url,
      natsUrl,
      natsWsUrl: nats?.wsUrl,
      natsMonitorUrl: nats?.monitorUrl,
      natsPid: nats?.pid,
      natsAuthDir,
      database: describeDatabase(databaseTarget(config)),
      token,
      tokenSource: tokenSource ?? (dev?.created ? "created" : "reused"),
      runner: "running",
      agent,
      failed: nats ? nats.exited.then(() => "nats-server exited") : new Promise<string>(() => {}),
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
