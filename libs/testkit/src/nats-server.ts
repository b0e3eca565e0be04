import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { GenericContainer, Wait, type StartedTestContainer } from "testcontainers";
import { composeImage, testServices } from "./containers.ts";
import { freePort } from "./free-port.ts";

export interface NatsServerOptions {
  /** Also listen for WebSocket clients (the extension uses nats.ws). */
  websocket?: boolean;
  /** Extra lines appended to the generated config file (accounts, users, ...); a function gets the server's folder. */
  extraConfig?: string | ((dir: string) => string);
  /** Binary to run; defaults to `nats-server` from PATH. */
  bin?: string;
  /** The server's `max_payload` in bytes (NATS's default is 1 MiB); may be changed before a restart. */
  maxPayload?: number;
}

/**
 * A real nats-server with JetStream in its own temp dir, on free ports.
 * Ports are kept across stop()/start() so clients can reconnect after a restart,
 * which is what the outage tests need.
 */
export class NatsServer {
  private proc: ChildProcess | undefined;
  /** CRUMBS_TEST_SERVICES=containers: the server runs in this container instead of `proc`. */
  private container: StartedTestContainer | undefined;
  private paused = false;
  port = -1;
  wsPort = -1;

  private constructor(
    readonly dir: string,
    private readonly opts: NatsServerOptions,
  ) {}

  /** Takes effect at the next start()/restart(), e.g. to bring a server back with a larger limit. */
  set maxPayload(bytes: number | undefined) {
    this.opts.maxPayload = bytes;
  }

  static async start(opts: NatsServerOptions = {}): Promise<NatsServer> {
    const dir = await mkdtemp(join(tmpdir(), "crumbs-nats-"));
    const server = new NatsServer(dir, { ...opts });
    await server.start();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get wsUrl(): string {
    if (this.wsPort < 0) throw new Error("nats-server was started without websocket");
    return `ws://127.0.0.1:${this.wsPort}`;
  }

  get running(): boolean {
    if (testServices === "containers") return this.container !== undefined;
    return this.proc !== undefined && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** The server's config file in its dir, listening on `listen` (and `wsListen` with websocket). */
  private async writeConfig(listen: string, wsListen: string): Promise<string> {
    const conf = [
      `listen: ${listen}`,
      `jetstream { store_dir: ${JSON.stringify(join(this.dir, "js"))} }`,
      this.opts.maxPayload !== undefined ? `max_payload: ${this.opts.maxPayload}` : "",
      this.opts.websocket ? `websocket { listen: "${wsListen}", no_tls: true }` : "",
      (typeof this.opts.extraConfig === "function" ? this.opts.extraConfig(this.dir) : this.opts.extraConfig) ?? "",
    ].join("\n");
    const confPath = join(this.dir, "nats.conf");
    await writeFile(confPath, conf);
    return confPath;
  }

  async start(): Promise<void> {
    if (this.running) return;
    if (testServices === "containers") return this.startContainer();
    const confPath = await this.writeConfig(`127.0.0.1:${this.port}`, `127.0.0.1:${this.wsPort}`);
    const portsDir = join(this.dir, "ports");
    await rm(portsDir, { recursive: true, force: true });
    await mkdir(portsDir);
    const proc = spawn(this.opts.bin ?? "nats-server", ["-c", confPath, "--ports_file_dir", portsDir], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    proc.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const spawnError = new Promise<never>((_, reject) => {
      proc.once("error", (err) =>
        reject(new Error(`could not start nats-server (is it on PATH? apt-get install nats-server): ${err.message}`)),
      );
    });
    this.proc = proc;
    let ports: { nats: number; websocket: number };
    try {
      ports = await Promise.race([this.waitForPorts(portsDir, proc.pid ?? 0, () => stderr), spawnError]);
    } catch (err) {
      proc.kill("SIGKILL"); // never leave a half-started server behind
      throw err;
    }
    this.port = ports.nats;
    if (this.opts.websocket) this.wsPort = ports.websocket;
  }

  private async waitForPorts(dir: string, pid: number, stderr: () => string) {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`nats-server exited: ${stderr()}`);
      const files = await readdir(dir).catch(() => [] as string[]);
      const file = files.find((f) => f.endsWith(`_${pid}.ports`));
      // nats-server creates the file and then writes it: one read can see it empty or cut short
      // (CI read "Unexpected end of JSON input" once). Such a file is not there yet; read it again.
      const text = file ? await readFile(join(dir, file), "utf8").catch(() => "") : "";
      let raw: { nats?: string[]; websocket?: string[] } | undefined;
      try {
        raw = text ? (JSON.parse(text) as typeof raw) : undefined;
      } catch {
        raw = undefined;
      }
      if (raw) {
        const portOf = (u?: string) => (u ? Number(new URL(u).port) : -1);
        if (raw.nats?.length && (!this.opts.websocket || raw.websocket?.length)) {
          return { nats: portOf(raw.nats[0]), websocket: portOf(raw.websocket?.[0]) };
        }
      }
      await sleep(25);
    }
    throw new Error(`nats-server did not report its ports in time: ${stderr()}`);
  }

  /**
   * The same server in a container of the image docker-compose.yml runs: the temp dir is mounted at
   * its own path (JetStream's data and any file extraConfig names), and the ports are published on
   * fixed host ports picked once, so a restart comes back where clients reconnect.
   */
  private async startContainer(): Promise<void> {
    if (this.port < 0) this.port = await freePort();
    if (this.opts.websocket && this.wsPort < 0) this.wsPort = await freePort();
    const confPath = await this.writeConfig("0.0.0.0:4222", "0.0.0.0:9222");
    const ports = [{ container: 4222, host: this.port }, ...(this.opts.websocket ? [{ container: 9222, host: this.wsPort }] : [])];
    this.container = await new GenericContainer(await composeImage("nats"))
      .withCommand(["-c", confPath])
      .withBindMounts([{ source: this.dir, target: this.dir }])
      .withExposedPorts(...ports)
      .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
      .start();
  }

  /** Kill the server (SIGKILL by default, as an outage would). Data stays on disk. */
  async stop(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    if (this.container) {
      this.resume(); // a frozen container would not take the stop signal
      const container = this.container;
      this.container = undefined;
      // docker stop: SIGTERM, then SIGKILL after the timeout; 0 is a kill.
      await container.stop({ timeout: signal === "SIGKILL" ? 0 : 10_000 });
      return;
    }
    const proc = this.proc;
    if (!proc || !this.running) return;
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    proc.kill(signal);
    await exited;
  }

  /** Freeze the server (SIGSTOP): connections stay open and nothing is answered, as a hung server's. */
  pause(): void {
    // A container's main process ignores signals sent from inside it; the cgroup freezer stops it all.
    if (this.container) {
      if (!this.paused) execFileSync("docker", ["pause", this.container.getId()]);
      this.paused = true;
    } else if (this.proc && this.running) this.proc.kill("SIGSTOP");
  }

  /** Let a paused server go on (SIGCONT); it then handles what was sent to it meanwhile, in order. */
  resume(): void {
    if (this.container) {
      if (this.paused) execFileSync("docker", ["unpause", this.container.getId()]);
      this.paused = false;
    } else if (this.proc && this.running) this.proc.kill("SIGCONT");
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Stop and remove the temp dir. */
  async dispose(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
