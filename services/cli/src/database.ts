import { join } from "node:path";
import { stateDir } from "./dev-token.ts";

export type DatabaseTarget = { databaseUrl: string } | { pgliteDir: string };

/** DATABASE_URL when set, otherwise the embedded PGlite database in .crumbs/pg of the current directory. */
export function databaseTarget(env: NodeJS.ProcessEnv, cwd: string): DatabaseTarget {
  return env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: join(stateDir(cwd), "pg") };
}

/** For the banner: never print a password. */
export function describeDatabase(target: DatabaseTarget): string {
  if ("pgliteDir" in target) return `PGlite (embedded) in ${target.pgliteDir}`;
  try {
    const url = new URL(target.databaseUrl);
    if (url.password) url.password = "***";
    return `Postgres ${url.toString()}`;
  } catch {
    return "Postgres (DATABASE_URL)";
  }
}
