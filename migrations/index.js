import { fileURLToPath } from "node:url";

/** This folder: the SQL files and drizzle's meta/_journal.json, resolved from this file so it works from any cwd. */
export const migrationsFolder = fileURLToPath(new URL(".", import.meta.url));
