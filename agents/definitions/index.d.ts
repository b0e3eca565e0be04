/** The page assistant's agent.def.v1: `crumbs start` installs it, `crumbs agents apply` takes it as a file. */
export declare const PAGE_ASSISTANT_FILE: string;
