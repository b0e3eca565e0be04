import { execFile } from "node:child_process";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { GenericContainer, Wait, type StartedTestContainer } from "testcontainers";
import { composeImage, testServices } from "./containers.ts";
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
 * must kill and restart the database (never the machine's shared one); with
 * CRUMBS_TEST_SERVICES=containers, in a container of the compose file's image.
 * Postgres refuses to run as root, so when we are root the cluster belongs
 * to the `postgres` OS user. Trust auth, fsync off (a killed
 * server loses nothing the OS already has; only a machine crash would), but
 * synchronous_commit stays on so an acknowledged commit survives `stop()`.
 */
export class PostgresServer {
  /** CRUMBS_TEST_SERVICES=containers: the cluster lives in this container instead of `dir`. */
  private container: StartedTestContainer | undefined;

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly binDir: string,
    private readonly asPostgres: boolean,
  ) {}

  static async start(opts: PostgresServerOptions = {}): Promise<PostgresServer> {
    if (testServices === "containers") return PostgresServer.startContainer();
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

  /**
   * The same cluster in a container of the image docker-compose.yml runs, published on a host port
   * picked once: a crash (`docker kill -s QUIT`, Postgres's immediate shutdown) and `docker start`
   * of the same container bring it back with its data, where clients reconnect.
   */
  private static async startContainer(): Promise<PostgresServer> {
    const dir = await mkdtemp(join(tmpdir(), "crumbs-pg-"));
    const server = new PostgresServer(dir, await freePort(), "", false);
    try {
      server.container = await new GenericContainer(await composeImage("postgres"))
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
        .withCommand(["postgres", "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=50"])
        .withExposedPorts({ container: 5432, host: server.port })
        // Over TCP, so the entrypoint's socket-only first start does not count.
        .withWaitStrategy(Wait.forSuccessfulCommand("pg_isready -h 127.0.0.1 -U postgres"))
        .withStartupTimeout(120_000)
        .start();
    } catch (err) {
      await server.dispose();
      throw err;
    }
    return server;
  }

  private async docker(...args: string[]): Promise<string> {
    return (await run("docker", args, { timeout: 60_000 })).stdout.trim();
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
    if (this.container) {
      const id = this.container.getId();
      await this.docker("start", id);
      for (let i = 0; ; i++) {
        const ready = await this.docker("exec", id, "pg_isready", "-h", "127.0.0.1", "-U", "postgres").then(
          () => true,
          () => false,
        );
        if (ready) return;
        if (i >= 300) throw new Error("the Postgres container did not accept connections within 30 s of docker start");
        await new Promise((r) => setTimeout(r, 100));
      }
    }
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
    if (this.container) {
      const id = this.container.getId();
      if ((await this.docker("inspect", "-f", "{{.State.Running}}", id)) !== "true") return;
      // The signals pg_ctl sends the postmaster: SIGQUIT is immediate, SIGINT fast.
      await this.docker("kill", "-s", mode === "immediate" ? "QUIT" : "INT", id);
      await this.docker("wait", id);
      return;
    }
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
    if (this.container) {
      await this.docker("rm", "-f", "-v", this.container.getId()).catch(() => {});
      this.container = undefined;
    }
    await this.stop().catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }
}
