import { execFile } from "node:child_process";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port.ts";

const run = promisify(execFile);

export interface PostgresServerOptions {
  /** Directory holding initdb/pg_ctl; defaults to the newest /usr/lib/postgresql/<v>/bin. */
  binDir?: string;
}

/** The newest Debian-packaged Postgres. */
async function defaultBinDir(): Promise<string> {
  const versions = (await readdir("/usr/lib/postgresql").catch(() => [] as string[]))
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error("no Postgres under /usr/lib/postgresql (apt-get install postgresql)");
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/**
 * A private Postgres cluster in a temp dir, on a free port, for tests that
 * must kill and restart the database (never the machine's shared one).
 * Postgres refuses to run as root, so when we are root the cluster belongs
 * to the `postgres` OS user. Trust auth, fsync off (a killed
 * server loses nothing the OS already has; only a machine crash would), but
 * synchronous_commit stays on so an acknowledged commit survives `stop()`.
 */
export class PostgresServer {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly binDir: string,
    private readonly asPostgres: boolean,
  ) {}

  static async start(opts: PostgresServerOptions = {}): Promise<PostgresServer> {
    const binDir = opts.binDir ?? (await defaultBinDir());
    const dir = await mkdtemp(join(tmpdir(), "crumbs-pg-"));
    const asPostgres = process.getuid?.() === 0;
    const server = new PostgresServer(dir, await freePort(), binDir, asPostgres);
    try {
      if (asPostgres) {
        const { stdout } = await run("id", ["-u", "postgres"]);
        const { stdout: gid } = await run("id", ["-g", "postgres"]);
        await chown(dir, Number(stdout.trim()), Number(gid.trim()));
      }
      await server.exec("initdb", ["-D", server.dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
      await server.start();
    } catch (err) {
      await server.dispose();
      throw err;
    }
    return server;
  }

  get dataDir(): string {
    return join(this.dir, "data");
  }

  /** Connection URL for database `postgres` (create others with createTestDatabase-style SQL). */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private exec(tool: string, args: string[]) {
    const bin = join(this.binDir, tool);
    return this.asPostgres ? run("runuser", ["-u", "postgres", "--", bin, ...args]) : run(bin, args);
  }

  /** Starts (again) on the same port and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c full_page_writes=off",
      `-c unix_socket_directories=${this.dir}`,
      "-c max_connections=50",
    ].join(" ");
    await this.exec("pg_ctl", ["-D", this.dataDir, "-l", join(this.dir, "log"), "-o", options, "-w", "-t", "30", "start"]);
  }

  /** `immediate` is a crash (no checkpoint, connections cut); `fast` a clean shutdown. */
  async stop(mode: "immediate" | "fast" = "immediate"): Promise<void> {
    await this.exec("pg_ctl", ["-D", this.dataDir, "-m", mode, "-w", "-t", "30", "stop"]).catch((err: unknown) => {
      // Already stopped is fine; anything else is not.
      if (!String((err as { stderr?: string }).stderr ?? err).includes("PID file")) throw err;
    });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async dispose(): Promise<void> {
    await this.stop().catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }
}
