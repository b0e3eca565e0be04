// The command list and the top-level answers (`--help`, `--version`, no command), in plain
// JavaScript on purpose: bin/crumbs.js prints them without registering tsx, which alone costs
// about 100 ms of CPU, so `crumbs --help` starts as fast as Node does. main.ts uses the same
// functions; commands/index.ts adds each command's loader. Types: catalog.d.ts.
import { readFileSync } from "node:fs";

export const COMMANDS = [
  { name: "start", summary: "run the whole stack here (API, database, NATS, runner)", longRunning: true },
  { name: "api", summary: "run the API only, configured by environment", longRunning: true },
  { name: "runner", summary: "run the agent runner only, configured by environment", longRunning: true },
  { name: "migrate", summary: "apply database migrations (idempotent)" },
  { name: "list", summary: "breadcrumbs by schema, tag or selector, newest first, a page at a time" },
  { name: "get", summary: "print a breadcrumb as JSON (--view llm for its llm view)" },
  { name: "put", summary: "create (no id) or update (id + version) a breadcrumb from a JSON file" },
  { name: "delete", summary: "delete a breadcrumb (--if-match VERSION to delete only that version)" },
  { name: "history", summary: "every version of a breadcrumb, oldest first" },
  { name: "tail", summary: "live events, one line each", longRunning: true },
  { name: "replay", summary: "past events in order; --publish re-publishes them to NATS" },
  { name: "agents", summary: "list or apply agent.def.v1 breadcrumbs" },
  { name: "keys", summary: "API keys: create (token shown once), list, revoke; NATS credentials" },
  { name: "outbox", summary: "the relay's parked (dead-letter) events: list, retry" },
];

export const VERSION = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;

export function globalUsage() {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "usage: crumbs <command> [options]   (crumbs <command> --help for details)",
    "",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Client commands use CRUMBS_URL and CRUMBS_TOKEN; unset, what `crumbs start` wrote in ./.crumbs",
    "(api-url, dev-token), else http://127.0.0.1:8081. Variables in ./.env are read too;",
    "what is already set in the environment wins. --version prints the version.",
  ].join("\n");
}

/**
 * The answer to a first argument that names no command: usage on stdout for a help flag (exit 0),
 * on stderr when nothing was given (exit 2), the version. Undefined for anything else.
 */
export function topLevelAnswer(first) {
  if (first === undefined) return { stream: "err", text: globalUsage(), code: 2 };
  if (first === "--help" || first === "-h" || first === "help") return { stream: "out", text: globalUsage(), code: 0 };
  if (first === "--version" || first === "-V" || first === "version") return { stream: "out", text: `crumbs ${VERSION}`, code: 0 };
  return undefined;
}
