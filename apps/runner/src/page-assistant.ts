import { fileURLToPath } from "node:url";

/** The page assistant's definition, which `crumbs start` installs unless CRUMBS_DEFAULT_AGENT=off. */
export const PAGE_ASSISTANT_FILE = fileURLToPath(new URL("../agents/page-assistant.json", import.meta.url));
