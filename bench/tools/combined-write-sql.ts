import { SUBJECT_PREFIX } from "@crumbs/schemas";
import { COMBINED_PATCH } from "@crumbs/api/store";

/**
 * The API's combined PATCH statement (store/combined-write-statement.ts) as a pgbench script, for
 * tools/write-combining.ts.
 */

/**
 * COMBINED_PATCH as a pgbench script: client c writes one row of each of the owners c*size .. c*size+size-1
 * (`bench<n>`, owning the rows n + owners * k), reading their versions first. The per-statement
 * values become pgbench variables (`-D actors, ctxs, refused`, the rest from the read);
 * pgbench reads `:word` even inside string literals, so the colons of the time format and of the message id become chr(58).
 */
export function combinedScript(size: number, owners: number, perOwner: number): string {
  const statement = COMBINED_PATCH.replace("$1::uuid[]", ":bids::uuid[]")
    .replace("$2::text[]", ":bowners::text[]")
    .replace("$3::int[]", ":bvers::int[]")
    .replace("$4::timestamptz[]", ":bats::timestamptz[]")
    .replace("$5::text[]", ":actors::text[]")
    .replace("$6::text[]", ":ctxs::text[]")
    .replace("$7::text[]", ":bsubjects::text[]")
    .replace("$8::text[]", ":refused::text[]")
    .replaceAll("HH24:MI:SS", `HH24' || chr(58) || 'MI' || chr(58) || 'SS`)
    .replaceAll("':updated'", "chr(58) || 'updated'")
    .trim();
  return String.raw`
\set k random(0, ${perOwner - 1})
SELECT array_agg(r.id ORDER BY g) AS bids, array_agg(b.owner ORDER BY g) AS bowners, array_agg(b.version ORDER BY g) AS bvers, array_agg(to_jsonb(clock_timestamp()) #>> '{}' ORDER BY g) AS bats, array_agg('${SUBJECT_PREFIX}.' || b.owner || '.updated.' ORDER BY g) AS bsubjects FROM generate_series(:client_id * ${size}, :client_id * ${size} + ${size - 1}) g JOIN bench_rows r ON r.n = g + ${owners} * :k JOIN breadcrumbs b ON b.id = r.id \gset
${statement};
`;
}
