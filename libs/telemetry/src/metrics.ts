import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { collectDefaultMetrics, Registry } from "prom-client";

export { Counter, Gauge, Histogram, Registry } from "prom-client";

let processRegistry: Registry | undefined;

/**
 * Process and runtime series (CPU, resident memory, heap, event-loop lag, GC, handles), collected
 * once per process: an API and a runner in one process (`crumbs start`) share them, and a test that
 * starts twenty APIs does not start twenty event-loop monitors.
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Prometheus text of the process series and the given registries. */
export async function renderMetrics(registries: readonly Registry[]): Promise<{ contentType: string; body: string }> {
  const merged = Registry.merge([processMetrics(), ...registries]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** A bare HTTP server answering GET /metrics, for a process that has no HTTP API of its own (the runner). */
export function serveMetrics(opts: { port: number; host: string; registries: readonly Registry[] }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("only GET /metrics here\n");
      return;
    }
    renderMetrics(opts.registries).then(
      ({ contentType, body }) => res.writeHead(200, { "content-type": contentType }).end(body),
      (err: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(`${String(err)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      const host = ["0.0.0.0", "::"].includes(opts.host) ? "127.0.0.1" : opts.host;
      resolve({
        url: `http://${host}:${port}/metrics`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
