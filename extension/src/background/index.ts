import type { ExecuteResult } from "../shared/command.ts";
import { execute } from "./commands/execute.ts";
import { startBus, type Bus } from "./bus.ts";
import { listenForPointerRequests } from "./commands/trusted-pointer.ts";

declare global {
  var crumbs: { execute(command: unknown): Promise<ExecuteResult> };
  var crumbsBus: Bus;
}

// The one entry point for commands: the bus executor and the tests both call it.
globalThis.crumbs = { execute };
// Hover by the real pointer (chrome.debugger), asked by a content script while it runs an action.
listenForPointerRequests();

// Bus features (page-context tracker, action loop over nats.ws); listeners register in this first turn.
globalThis.crumbsBus = startBus();
