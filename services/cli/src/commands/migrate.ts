import { parseCommandArgs } from "../args.ts";
import type { Command } from "../context.ts";
import { databaseTarget, describeDatabase } from "../database.ts";

const usage = `usage: crumbs migrate

Apply the SQL migrations in migrations/ to DATABASE_URL (or the PGlite database in .crumbs/pg).
Idempotent, and safe while other replicas migrate too (a Postgres advisory lock serialises them).`;

export const migrateCommand: Command = {
  usage,
  async run(args, ctx) {
    parseCommandArgs(args, {}, usage);
    const [{ loadApiConfig, openDatabase, migrate, databaseStartupError }, { defaultLogger }] = await Promise.all([
      import("@crumbs/api"),
      import("@crumbs/telemetry"),
    ]);
    const target = databaseTarget(loadApiConfig(ctx.env));
    const databaseUrl = "databaseUrl" in target ? target.databaseUrl : undefined;
    const database = await openDatabase({ ...target, log: defaultLogger() }).catch((err: unknown) => {
      throw databaseStartupError(databaseUrl, err);
    });
    try {
      await migrate(database).catch((err: unknown) => {
        throw databaseStartupError(databaseUrl, err);
      });
    } finally {
      await database.close();
    }
    ctx.out(`migrations applied to ${describeDatabase(target)}`);
  },
};
