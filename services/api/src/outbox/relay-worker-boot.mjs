// The relay thread's entry: a worker runs plain Node, so it registers tsx itself
// before loading the TypeScript sources (the API's workspaces ship no build).
import { register } from "tsx/esm/api";

register();
await import("./relay-worker.ts");
