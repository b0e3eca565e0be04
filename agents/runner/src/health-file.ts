import { writeFile } from "node:fs/promises";
import { Events, type NatsConnection } from "nats";

/**
 * Keep a file's mtime fresh while the NATS connection is up, so a health
 * check without an HTTP port can tell a live runner from a stuck one.
 */
export function keepHealthFile(nc: NatsConnection, path: string, everyMs = 5_000): () => void {
  let connected = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === Events.Disconnect) connected = false;
      if (s.type === Events.Reconnect) connected = true;
    }
  })();
  const touch = () => {
    if (connected && !nc.isClosed()) void writeFile(path, new Date().toISOString()).catch(() => {});
  };
  touch();
  const timer = setInterval(touch, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
