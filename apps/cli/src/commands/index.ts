import type { Command } from "../context.ts";
import { agentsCommand } from "./agents.ts";
import { apiCommand } from "./api.ts";
import { getCommand } from "./get.ts";
import { historyCommand } from "./history.ts";
import { keysCommand } from "./keys.ts";
import { migrateCommand } from "./migrate.ts";
import { outboxCommand } from "./outbox.ts";
import { putCommand } from "./put.ts";
import { replayCommand } from "./replay.ts";
import { runnerCommand } from "./runner.ts";
import { startCommand } from "./start.ts";
import { tailCommand } from "./tail.ts";

export const commands: readonly Command[] = [
  startCommand,
  apiCommand,
  runnerCommand,
  migrateCommand,
  getCommand,
  putCommand,
  historyCommand,
  tailCommand,
  replayCommand,
  agentsCommand,
  keysCommand,
  outboxCommand,
];
