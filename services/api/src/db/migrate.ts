import { migrationsFolder } from "@crumbs/migrations";
import type { Database } from "./database.ts";

export { migrationsFolder };

/** Idempotent; safe when several API replicas start at once (advisory lock on postgres). */
export async function migrate(database: Database): Promise<void> {
  await database.runMigrations(migrationsFolder);
}
