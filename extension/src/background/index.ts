import type { ExecuteResult } from "../shared/command.ts";
import { execute } from "./commands/execute.ts";
import { startBus, type Bus } from "./bus.ts";
import { debuggedTabs, listenForInputRequests } from "./commands/trusted-input.ts";

declare global {
  var crumbs: {
    execute(command: unknown): Promise<ExecuteResult>;
    /** Tabs chrome.debugger is attached to for trusted input now (each shows Chrome's debugging banner). */
    debuggedTabs(): number[];
  };
  var crumbsBus: Bus;
}

// The settings in storage.local hold the API token. Chrome exposes storage.local to content
// scripts by default, and a content script runs in the page's renderer process: a page that
// compromised its renderer would read the token. Only the extension's own pages and this worker
// may read it (a persisted setting; supported for storage.local from Chrome 140, the manifest's
// minimum). Set at every start, before anything else, so no content script races a fresh install.
void chrome.storage.local.setAccessLevel({ accessLevel: "TRUSTED_CONTEXTS" });

// The one entry point for commands: the bus executor and the tests both call it.
globalThis.crumbs = { execute, debuggedTabs };
// Hover by the real pointer, and trusted-input mode (chrome.debugger), asked by a content script while it runs an action.
listenForInputRequests();

// Bus features (page-context tracker, action loop over nats.ws); listeners register in this first turn.
globalThis.crumbsBus = startBus();
