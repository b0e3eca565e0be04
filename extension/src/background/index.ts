import type { ExecuteResult } from "./command.ts";
import { execute } from "./execute.ts";

declare global {
  var crumbs: { execute(command: unknown): Promise<ExecuteResult> };
}

// The one entry point for commands: the bus executor and the tests both call it.
globalThis.crumbs = { execute };
