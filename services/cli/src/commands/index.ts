import type { Command } from "../context.ts";
import { COMMANDS, type CatalogEntry } from "./catalog.js";

/** A command of `crumbs --help`; its module is imported only when it runs. */
export interface CommandEntry extends CatalogEntry {
  load(): Promise<Command>;
}

// Loaded lazily: `crumbs --help`, `--version` and a client command never import the API, the
// runner, nats or postgres (services/cli/README.md has the start-up figures).
const loaders: Record<string, () => Promise<Command>> = {
  start: async () => (await import("./start.ts")).startCommand,
  api: async () => (await import("./api.ts")).apiCommand,
  runner: async () => (await import("./runner.ts")).runnerCommand,
  migrate: async () => (await import("./migrate.ts")).migrateCommand,
  list: async () => (await import("./list.ts")).listCommand,
  get: async () => (await import("./get.ts")).getCommand,
  put: async () => (await import("./put.ts")).putCommand,
  delete: async () => (await import("./delete.ts")).deleteCommand,
  history: async () => (await import("./history.ts")).historyCommand,
  tail: async () => (await import("./tail.ts")).tailCommand,
  replay: async () => (await import("./replay.ts")).replayCommand,
  agents: async () => (await import("./agents.ts")).agentsCommand,
  keys: async () => (await import("./keys.ts")).keysCommand,
  outbox: async () => (await import("./outbox.ts")).outboxCommand,
};

export const commands: readonly CommandEntry[] = COMMANDS.map((c) => {
  const load = loaders[c.name];
  if (!load) throw new Error(`crumbs: command ${c.name} has no module`);
  return { ...c, load };
});
