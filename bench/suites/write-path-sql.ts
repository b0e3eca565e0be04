import { breadcrumbContentCheck } from "@crumbs/api";
import { patchBreadcrumb, type StoreDeps } from "@crumbs/api/store";

class Captured extends Error {}

const ID = "00000000-0000-4000-8000-00000000b1d0";
const VERSION = 987_654_321;
const AT = "2026-01-01T00:00:00.000Z";
/** Stands for the row's owner: each pgbench client writes its own owner's rows, like the API's clients. */
const OWNER = "benchownersentinel";

/**
 * The statement a PATCH of `context` sends, taken from the API's own code (patchBreadcrumb with
 * the route's check, on a postgres-js client that records the query instead of sending it), as a pgbench
 * command: the row id, version, time, owner and subject prefix become `:bid`, `:bver`, `:bat`,
 * `:bowner` and `:bsubject` (set per transaction by the script), every other parameter a `-D` variable. pgbench reads `:word` even inside string literals, so the colons of the
 * timestamp format become chr(58); nothing else differs from what the API sends.
 */
export function patchStatementForPgbench(context: Record<string, unknown>): { sql: string; vars: Record<string, string> } {
  let query: { sql: string; params: unknown[] } | undefined;
  // A postgres-js client as the API's database has: the statement is captured as it would be sent.
  const db = {
    $client: {
      unsafe(text: string, params: unknown[]) {
        query = { sql: text, params };
        throw new Captured();
      },
    },
  };
  const deps = { database: { db }, now: () => new Date(AT), newId: () => ID } as unknown as StoreDeps;
  // patchBreadcrumb is async, but it builds and "executes" the statement before its first await.
  void patchBreadcrumb(deps, {
    owner: OWNER,
    actor: "admin",
    id: ID,
    expectedVersion: VERSION,
    body: { context },
    validate: breadcrumbContentCheck,
  }).catch((err: unknown) => {
    if (!(err instanceof Captured)) throw err;
  });
  if (!query) throw new Error("patchBreadcrumb sent no statement");
  const vars: Record<string, string> = {};
  let sql = query.sql;
  // Highest index first, so $1 never eats the start of $12.
  for (let i = query.params.length; i >= 1; i--) {
    const value = query.params[i - 1];
    let name: string;
    if (value === ID) name = "bid";
    else if (value === VERSION) name = "bver";
    else if (value === AT) name = "bat";
    else if (value === OWNER) name = "bowner";
    else if (typeof value === "string" && value.startsWith(`crumbs.${OWNER}.`)) name = "bsubject";
    else {
      name = `p${i}`;
      vars[name] = typeof value === "string" ? value : JSON.stringify(value);
    }
    sql = sql.replaceAll(`$${i}`, `:${name}`);
  }
  sql = sql.replaceAll("HH24:MI:SS", `HH24' || chr(58) || 'MI' || chr(58) || 'SS`);
  return { sql: `${sql.trim()};`, vars };
}
