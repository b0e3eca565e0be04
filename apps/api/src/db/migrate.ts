import { fileURLToPath } from "node:url";
import type { Database } from "./database.ts";

/** The migrations folder of this package, resolved from this file so it works from any cwd. */
export const migrationsFolder = fileURLToPath(new URL("../../migrations", import.meta.url));

/** Idempotent; safe when several API replicas start at once (advisory lock on postgres). */
export async function migrate(database: Database): Promise<void> {
  await database.runMigrations(migrationsFolder);
}
