import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { assembleApi, type AssembleOptions } from "./assemble.ts";
import { guardDriverFaults } from "./db/open.ts";
import { listenStartupError } from "./startup-errors.ts";

export interface RunningApi {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Opens the database (unless given), migrates, connects NATS, ensures the
 * stream, starts the relay and the HTTP server. `port: 0` picks a free port.
 */
export async function startApi(opts: AssembleOptions): Promise<RunningApi> {
  const stack = await assembleApi(opts);
  // The postgres driver's known uncaught TypeError (porsager/postgres#1154, #1208) must not
  // kill the process; see db/postgres/fault-guard.ts. Every other uncaught error still exits.
  const { database } = stack;
  const unguard = database.recover
    ? guardDriverFaults({
        recover: (reason) => database.recover?.(reason),
        log: stack.logger,
      })
    : () => {};
  try {
    const server = await listen(stack.app.fetch, opts.config.host, opts.config.port).catch((err: unknown) => {
      throw listenStartupError(opts.config.host, opts.config.port, err);
    });
    const port = (server.address() as AddressInfo).port;
    const host = ["0.0.0.0", "::"].includes(opts.config.host) ? "127.0.0.1" : opts.config.host;
    return {
      url: `http://${host}:${port}`,
      port,
      async close() {
        await closeServer(server);
        await stack.close();
        unguard();
      },
    };
  } catch (err) {
    await stack.close();
    unguard();
    throw err;
  }
}

export function listen(fetch: Parameters<typeof serve>[0]["fetch"], hostname: string, port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname, port }, () => resolve(server));
    server.once("error", reject);
  });
}

export function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    // SSE streams never end on their own; cut open connections so close() returns.
    const s = server as ServerType & { closeAllConnections?: () => void };
    server.close(() => resolve());
    s.closeAllConnections?.();
  });
}
