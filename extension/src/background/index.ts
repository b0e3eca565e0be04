import type { ExecuteResult } from "../shared/command.ts";
import { execute } from "./commands/execute.ts";
import { startBus, type Bus } from "./bus.ts";

declare global {
  var crumbs: { execute(command: unknown): Promise<ExecuteResult> };
  var crumbsBus: Bus;
}

// The one entry point for commands: the bus executor and the tests both call it.
globalThis.crumbs = { execute };

// Bus features (page-context tracker, action loop over nats.ws); listeners register in this first turn.
globalThis.crumbsBus = startBus();
