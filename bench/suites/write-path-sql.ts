import { breadcrumbContentCheck } from "@crumbs/api/testing";
import { SUBJECT_PREFIX } from "@crumbs/schemas";
import { patchBreadcrumb, type StoreDeps } from "@crumbs/api/store";

class Captured extends Error {}

const ID = "00000000-0000-4000-8000-00000000b1d0";
const VERSION = 987_654_321;
const AT = "2026-01-01T00:00:00.000Z";
/** Stands for the row's owner: each pgbench client writes its own owner's rows, like the API's clients. */
const OWNER = "benchownersentinel";
/** The start of the subject parameter the API binds for OWNER (`crumbs.<owner>.`). */
const SUBJECT_OF_OWNER = `${SUBJECT_PREFIX}.${OWNER}.`;

/** A write statement as the API sends it, with its parameters. */
interface CapturedStatement {
  sql: string;
  params: unknown[];
}

/** The statement a PATCH of `context` sends, from the API's own code (see patchStatementForPgbench). */
function captureStatement(context: Record<string, unknown>): CapturedStatement {
  let query: CapturedStatement | undefined;
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
  return query;
}

/** What differs between two writes of the same shape: the row, its version, the time and the owner. */
export interface WriteTarget {
  id: string;
  version: number;
  at: string;
  owner: string;
}

type Slot = "bid" | "bver" | "bat" | "bowner" | "bsubject";

/** Which of the per-write values a captured parameter stands for, if any. */
function slotOf(value: unknown): Slot | undefined {
  if (value === ID) return "bid";
  if (value === VERSION) return "bver";
  if (value === AT) return "bat";
  if (value === OWNER) return "bowner";
  if (typeof value === "string" && value.startsWith(SUBJECT_OF_OWNER)) return "bsubject";
  return undefined;
}

/**
 * The statement a PATCH of `context` sends, for any row: `forRow` gives its parameters as the API
 * binds them, so a postgres-js client can run the same text as the same prepared statement.
 */
export function patchStatement(context: Record<string, unknown>): { sql: string; forRow(t: WriteTarget): unknown[] } {
  const q = captureStatement(context);
  // Which parameters are per write is worked out once; forRow runs for every write of the floor.
  const slots = q.params.map(slotOf);
  return {
    sql: q.sql,
    forRow: (t) =>
      q.params.map((value, i) => {
        const slot = slots[i];
        if (slot === undefined) return value;
        const subject = `${SUBJECT_PREFIX}.${t.owner}.${String(value).slice(SUBJECT_OF_OWNER.length)}`;
        return { bid: t.id, bver: t.version, bat: t.at, bowner: t.owner, bsubject: subject }[slot];
      }),
  };
}

/**
 * The statement a PATCH of `context` sends, taken from the API's own code (patchBreadcrumb with
 * the route's check, on a postgres-js client that records the query instead of sending it), as a pgbench
 * command: the row id, version, time, owner and subject prefix become `:bid`, `:bver`, `:bat`,
 * `:bowner` and `:bsubject` (set per transaction by the script), every other parameter a `-D` variable. pgbench reads `:word` even inside string literals, so the colons of the
 * timestamp format become chr(58); nothing else differs from what the API sends.
 */
export function patchStatementForPgbench(context: Record<string, unknown>): { sql: string; vars: Record<string, string> } {
  const query = captureStatement(context);
  const vars: Record<string, string> = {};
  let sql = query.sql;
  // Highest index first, so $1 never eats the start of $12.
  for (let i = query.params.length; i >= 1; i--) {
    const value = query.params[i - 1];
    let name: string | undefined = slotOf(value);
    if (name === undefined) {
      name = `p${i}`;
      vars[name] = typeof value === "string" ? value : JSON.stringify(value);
    }
    sql = sql.replaceAll(`$${i}`, `:${name}`);
  }
  sql = sql.replaceAll("HH24:MI:SS", `HH24' || chr(58) || 'MI' || chr(58) || 'SS`);
  return { sql: `${sql.trim()};`, vars };
}
