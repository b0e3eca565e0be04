import type { ApiConfig } from "@crumbs/api";

export type DatabaseTarget = { databaseUrl: string } | { pgliteDir: string };

/** DATABASE_URL when set, otherwise the embedded PGlite database (CRUMBS_PGLITE_DIR, default .crumbs/pg). */
export function databaseTarget(config: Pick<ApiConfig, "databaseUrl" | "pgliteDir">): DatabaseTarget {
  return config.databaseUrl ? { databaseUrl: config.databaseUrl } : { pgliteDir: config.pgliteDir };
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
