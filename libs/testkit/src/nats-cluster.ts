import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type ConnectionOptions } from "nats";
import { freePort } from "./free-port.ts";

interface Node {
  name: string;
  port: number;
  clusterPort: number;
  conf: string;
  proc?: ChildProcess;
}

const running = (p?: ChildProcess) => p !== undefined && p.exitCode === null && p.signalCode === null;

export interface NatsClusterOptions {
  size?: number;
  name?: string;
  /**
   * More config for each node, given the node's own folder: a locked cluster's operator, system
   * account and resolver (`lockedServerConfig` of the API's nats-auth). Every node needs the same
   * operator and system account, and its own `full` resolver directory: the resolvers share pushed
   * accounts over the routes, through the system account.
   */
  extraConfig?: (nodeDir: string) => string;
  /** How the cluster's own readiness check connects: on a locked cluster, a user of a JetStream account. */
  connectOptions?: Partial<ConnectionOptions>;
}

/**
 * Several real nats-server processes with JetStream, routed into one cluster on loopback
 * ports. Ports and store dirs are kept across stop/start, so a killed node comes back as
 * itself and catches up from its peers, as it would in production.
 */
export class NatsCluster {
  private constructor(
    readonly dir: string,
    private readonly nodes: Node[],
    private readonly connectOptions: Partial<ConnectionOptions> = {},
  ) {}

  static async start(opts: NatsClusterOptions = {}): Promise<NatsCluster> {
    const size = opts.size ?? 3;
    const dir = await mkdtemp(join(tmpdir(), "crumbs-nats-cluster-"));
    const nodes: Node[] = [];
    for (let i = 0; i < size; i++) {
      nodes.push({ name: `n${i + 1}`, port: await freePort(), clusterPort: await freePort(), conf: join(dir, `n${i + 1}.conf`) });
    }
    const routes = nodes.map((n) => `nats-route://127.0.0.1:${n.clusterPort}`);
    for (const n of nodes) {
      await writeFile(
        n.conf,
        [
          `server_name: ${n.name}`,
          `listen: 127.0.0.1:${n.port}`,
          `jetstream { store_dir: ${JSON.stringify(join(dir, n.name))} }`,
          `cluster {`,
          `  name: ${opts.name ?? "crumbs"}`,
          `  listen: 127.0.0.1:${n.clusterPort}`,
          `  routes: [${routes.filter((r) => !r.endsWith(`:${n.clusterPort}`)).join(", ")}]`,
          `}`,
          opts.extraConfig?.(join(dir, n.name)) ?? "",
        ].join("\n"),
      );
    }
    const cluster = new NatsCluster(dir, nodes, opts.connectOptions);
    try {
      for (const n of nodes) cluster.spawn(n);
      await cluster.waitForJetStream();
    } catch (err) {
      await cluster.dispose();
      throw err;
    }
    return cluster;
  }

  /** Every node's client URL, comma-separated: what NATS_URL takes for a cluster. */
  get url(): string {
    return this.nodes.map((n) => `nats://127.0.0.1:${n.port}`).join(",");
  }

  urlOf(i: number): string {
    return `nats://127.0.0.1:${this.node(i).port}`;
  }

  /** Kill node i (SIGKILL by default, as a crash would). Its data stays on disk. */
  async stop(i: number, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const proc = this.node(i).proc;
    if (!proc || !running(proc)) return;
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    proc.kill(signal);
    await exited;
  }

  async start(i: number): Promise<void> {
    const n = this.node(i);
    if (!running(n.proc)) this.spawn(n);
    await this.waitForJetStream();
  }

  async dispose(): Promise<void> {
    for (let i = 0; i < this.nodes.length; i++) await this.stop(i);
    await rm(this.dir, { recursive: true, force: true });
  }

  private node(i: number): Node {
    const n = this.nodes[i];
    if (!n) throw new Error(`no node ${i} in a cluster of ${this.nodes.length}`);
    return n;
  }

  private spawn(n: Node): void {
    const proc = spawn("nats-server", ["-c", n.conf], { stdio: ["ignore", "ignore", "ignore"] });
    proc.once("error", () => {});
    n.proc = proc;
  }

  /** JetStream answers only once the meta group has a leader: until then stream creation fails. */
  private async waitForJetStream(): Promise<void> {
    const deadline = Date.now() + 30_000;
    let last: unknown;
    while (Date.now() < deadline) {
      try {
        const nc = await connect({
          ...this.connectOptions,
          servers: this.nodes.filter((n) => running(n.proc)).map((n) => `127.0.0.1:${n.port}`),
          timeout: 1_000,
        });
        try {
          const jsm = await nc.jetstreamManager({ timeout: 1_000 });
          await jsm.getAccountInfo();
          return;
        } finally {
          await nc.close();
        }
      } catch (err) {
        last = err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    throw new Error(`the NATS cluster's JetStream did not come up: ${String(last)}`);
  }
}
