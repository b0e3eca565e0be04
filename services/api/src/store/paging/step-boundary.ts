import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "../../db/database.ts";
import { breadcrumbHistory as h } from "../../db/schema.ts";

/**
 * Where a step of an owner's events from `after` would end, told before the step is read: the
 * seq of its last row and how many rows it takes, by the page's rule (up to `rows` rows while
 * their kept text stays within `bytes`, the first row whatever its size). Sizes come from the
 * kept text's length alone (the header, nothing converted), so this costs a walk of the owner's
 * seq index and no text; a streamed answer reads the step after next from here while the next is
 * still in Postgres (store/event-lines.ts). A guess, checked against the step once it is read:
 * rows without kept text or sized otherwise make it wrong, and then it is not used.
 */
export async function stepBoundary(
  db: Executor,
  owner: string,
  after: number | undefined,
  rows: number,
  bytes: number,
): Promise<{ seq: number; rows: number } | undefined> {
  const [last] = rowsOf<{ seq: string; rn: string }>(
    await db.execute(sql`
      select seq::text as seq, rn::text as rn from (
        select seq, row_number() over w as rn, sum(octet_length(event_json)) over w as upto
        from (
          select ${h.seq} as seq, ${h.event_json} as event_json from ${h}
          where ${h.owner} = ${owner} and ${h.seq} > ${after ?? 0}
          order by ${h.seq} limit ${rows}
        ) c
        window w as (order by seq rows unbounded preceding)
      ) s
      where rn = 1 or upto <= ${bytes}
      order by seq desc limit 1`),
  );
  return last ? { seq: Number(last.seq), rows: Number(last.rn) } : undefined;
}
