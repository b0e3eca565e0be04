import type { Command } from "../context.ts";

/** What `crumbs --help` lists. The module is imported only when its command runs. */
export interface CommandEntry {
  name: string;
  summary: string;
  /** Long-running commands get SIGINT/SIGTERM as `ctx.shutdown` instead of dying at once. */
  longRunning?: boolean;
  load(): Promise<Command>;
}

// Loaded lazily: `crumbs --help`, `--version` and a client command never import the API, the
// runner, nats or postgres (apps/cli/README.md has the start-up figures).
export const commands: readonly CommandEntry[] = [
  { name: "start", summary: "run the whole stack here (API, database, NATS, runner)", longRunning: true, load: async () => (await import("./start.ts")).startCommand },
  { name: "api", summary: "run the API only, configured by environment", longRunning: true, load: async () => (await import("./api.ts")).apiCommand },
  { name: "runner", summary: "run the agent runner only, configured by environment", longRunning: true, load: async () => (await import("./runner.ts")).runnerCommand },
  { name: "migrate", summary: "apply database migrations (idempotent)", load: async () => (await import("./migrate.ts")).migrateCommand },
  { name: "list", summary: "breadcrumbs by schema, tag or selector, newest first, a page at a time", load: async () => (await import("./list.ts")).listCommand },
  { name: "get", summary: "print a breadcrumb as JSON (--view llm for its llm view)", load: async () => (await import("./get.ts")).getCommand },
  { name: "put", summary: "create (no id) or update (id + version) a breadcrumb from a JSON file", load: async () => (await import("./put.ts")).putCommand },
  { name: "delete", summary: "delete a breadcrumb (--if-match VERSION to delete only that version)", load: async () => (await import("./delete.ts")).deleteCommand },
  { name: "history", summary: "every version of a breadcrumb, oldest first", load: async () => (await import("./history.ts")).historyCommand },
  { name: "tail", summary: "live events, one line each", longRunning: true, load: async () => (await import("./tail.ts")).tailCommand },
  { name: "replay", summary: "past events in order; --publish re-publishes them to NATS", load: async () => (await import("./replay.ts")).replayCommand },
  { name: "agents", summary: "list or apply agent.def.v1 breadcrumbs", load: async () => (await import("./agents.ts")).agentsCommand },
  { name: "keys", summary: "API keys: create (token shown once), list, revoke; NATS credentials", load: async () => (await import("./keys.ts")).keysCommand },
  { name: "outbox", summary: "the relay's parked (dead-letter) events: list, retry", load: async () => (await import("./outbox.ts")).outboxCommand },
];
