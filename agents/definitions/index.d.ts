/** The page assistant's agent.def.v1: `crumbs start` installs it, `crumbs agents apply` takes it as a file. */
export declare const PAGE_ASSISTANT_FILE: string;
/** An agent driven by the runner's task controller (skills, exploration, the model as fallback). */
export declare const TASK_HELPER_FILE: string;
