import { spawn } from "node:child_process";
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CliError } from "./errors.ts";
import { pickPort } from "./ports.ts";

const NATS_INSTALL_HINT =
  "install it with `sudo apt-get install nats-server` (Debian/Ubuntu) or download it from " +
  "https://github.com/nats-io/nats-server/releases, or set NATS_URL to a running server";

export interface LaunchedNats {
  url: string;
  wsUrl: string;
  /** nats-server's HTTP monitoring (/varz, /connz, /jsz) when asked for: what nats-top and NUI attach to. */
  monitorUrl: string | undefined;
  pid: number;
  /** Resolves when the process exits, for whatever reason. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The config `crumbs start` gives its nats-server: JetStream for the event stream, WebSocket for the
 * extension, and (with `authConf`) the operator/account JWTs, so no port takes an unauthenticated client.
 */
function natsConfig(opts: { port: number; wsPort: number; monitorPort: number | undefined; dir: string; authConf?: string; resolver?: string }): string {
  return [
    "# written by `crumbs start` on every start; edit the code, not this file",
    `listen: "127.0.0.1:${opts.port}"`,
    // Monitoring only when asked for, and on loopback: /connz lists every client with its JWT, and
    // nats-server answers `?callback=` as JSONP, so any web page open in a browser on this machine
    // could read it with a <script> tag; loopback alone does not keep a page out (SECURITY.md).
    ...(opts.monitorPort === undefined ? [] : [`http: "127.0.0.1:${opts.monitorPort}"`]),
    // nats-server resolves an include relative to the config file's folder (absolute paths too).
    ...(opts.authConf ? [`include ${JSON.stringify(relative(opts.dir, opts.authConf))}`] : []),
    // The owners' accounts the API pushes at run time (SECURITY.md, "NATS"), kept in the folder.
    ...(opts.resolver ? [opts.resolver] : []),
    `jetstream { store_dir: ${JSON.stringify(join(opts.dir, "jetstream"))} }`,
    `websocket { listen: "127.0.0.1:${opts.wsPort}", no_tls: true }`,
    `log_file: ${JSON.stringify(join(opts.dir, "nats-server.log"))}`,
    "",
  ].join("\n");
}

/**
 * Runs `nats-server` from PATH with its config and JetStream data in `dir` (so streams survive a
 * restart), on 4222/9222 when free and on free ports otherwise; HTTP monitoring only on `monitorPort`.
 * Resolves once the server has written its ports file, i.e. it accepts connections.
 */
export async function launchNats(opts: {
  dir: string;
  bin?: string;
  port?: number;
  wsPort?: number;
  monitorPort?: number;
  authConf?: string;
  /** The resolver block (`resolverConfig` of @crumbs/api), with `authConf`. */
  resolver?: string;
}): Promise<LaunchedNats> {
  await mkdir(opts.dir, { recursive: true });
  const port = await pickPort(opts.port ?? 4222);
  const wsPort = await pickPort(opts.wsPort ?? 9222);
  const monitorPort = opts.monitorPort === undefined ? undefined : await pickPort(opts.monitorPort);
  const confPath = join(opts.dir, "nats.conf");
  await writeFile(
    confPath,
    natsConfig({
      port,
      wsPort,
      monitorPort,
      dir: opts.dir,
      ...(opts.authConf ? { authConf: opts.authConf } : {}),
      ...(opts.resolver ? { resolver: opts.resolver } : {}),
    }),
  );
  const portsDir = join(opts.dir, "ports");
  await stopLeftover(portsDir, confPath);
  await rm(portsDir, { recursive: true, force: true });
  await mkdir(portsDir);

  const proc = spawn(opts.bin ?? "nats-server", ["-c", confPath, "--ports_file_dir", portsDir], {
    stdio: ["ignore", "ignore", "pipe"],
    // Its own process group: Ctrl-C in a terminal reaches only `crumbs start`, which stops the
    // runner and the API first and nats-server last, so nothing logs a lost connection on the way out.
    detached: true,
  });
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const failed = new Promise<never>((_, reject) => {
    proc.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "ENOENT"
          ? new CliError("nats_server_missing", `nats-server is not on PATH: ${NATS_INSTALL_HINT}`)
          : new CliError("nats_start_failed", `could not start nats-server: ${err.message}`),
      ),
    );
    void exited.then(async () => {
      const log = await readFile(join(opts.dir, "nats-server.log"), "utf8").catch(() => "");
      reject(new CliError("nats_start_failed", `nats-server exited: ${(stderr || log.slice(-1000)).trim()}`));
    });
  });

  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill("SIGTERM");
    const killed = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
    if (!killed) {
      proc.kill("SIGKILL");
      await exited;
    }
  };

  try {
    await Promise.race([waitForPortsFile(portsDir, proc.pid ?? -1), failed]);
  } catch (err) {
    await stop();
    throw err;
  }
  failed.catch(() => {});
  return {
    url: `nats://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${wsPort}`,
    monitorUrl: monitorPort === undefined ? undefined : `http://127.0.0.1:${monitorPort}`,
    pid: proc.pid ?? -1,
    exited,
    stop,
  };
}

/**
 * A `crumbs start` that was killed (SIGKILL, a crash) leaves its nats-server running, holding the
 * ports and the JetStream directory. Its pid is in the ports file name; stop it only if it really
 * is a nats-server on this very config file.
 */
async function stopLeftover(portsDir: string, confPath: string): Promise<void> {
  const files = await readdir(portsDir).catch(() => [] as string[]);
  for (const file of files) {
    const pid = Number(/_(\d+)\.ports$/.exec(file)?.[1]);
    if (!pid) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    const args = cmdline.split("\0");
    if (!args[0]?.endsWith("nats-server") || !args.includes(confPath)) continue;
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      continue;
    }
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => ""))) await sleep(50);
  }
}

async function waitForPortsFile(dir: string, pid: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const files = await readdir(dir).catch(() => [] as string[]);
    if (files.some((f) => f.endsWith(`_${pid}.ports`))) return;
    await sleep(25);
  }
  throw new CliError("nats_start_failed", "nats-server did not start listening within 15 s");
}
