import { fileURLToPath } from "node:url";

/** The page assistant's agent.def.v1: `crumbs start` installs it, `crumbs agents apply` takes it as a file. */
export const PAGE_ASSISTANT_FILE = fileURLToPath(new URL("./page-assistant.json", import.meta.url));
/** An agent driven by the runner's task controller (skills, exploration, the model as fallback). */
export const TASK_HELPER_FILE = fileURLToPath(new URL("./task-helper.json", import.meta.url));
