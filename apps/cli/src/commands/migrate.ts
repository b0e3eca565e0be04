import { parseCommandArgs } from "../args.ts";
import type { Command } from "../context.ts";
import { databaseTarget, describeDatabase } from "../database.ts";

const usage = `usage: crumbs migrate

Apply the SQL migrations in apps/api/migrations/ to DATABASE_URL (or the PGlite database in .crumbs/pg).
Idempotent, and safe while other replicas migrate too (a Postgres advisory lock serialises them).`;

export const migrateCommand: Command = {
  name: "migrate",
  summary: "apply database migrations (idempotent)",
  usage,
  async run(args, ctx) {
    parseCommandArgs(args, {}, usage);
    const { loadApiConfig, openDatabase, migrate } = await import("@crumbs/api");
    const target = databaseTarget(loadApiConfig(ctx.env));
    const database = await openDatabase(target);
    try {
      await migrate(database);
    } finally {
      await database.close();
    }
    ctx.out(`migrations applied to ${describeDatabase(target)}`);
  },
};
