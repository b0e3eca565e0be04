// What other workspaces use of the CLI: the whole stack in one process (the extension's
// end-to-end test runs it as `npm start` does). The binary's entry point is bin/crumbs.js.
export { startStack, type RunningStack } from "./stack.ts";
