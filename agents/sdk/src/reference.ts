import { isReferenceEvent, type BreadcrumbReferenceEvent } from "@crumbs/schemas";
import { ApiResponseError } from "./errors.ts";
import type { CrumbsHttp } from "./http-client.ts";
import type { BreadcrumbEvent } from "./known.ts";
import { breadcrumbEventSchema } from "./wire.ts";

/** What resolving a reference event needs of the API: its GETs. */
export type ReferenceHttp = Pick<CrumbsHttp, "events" | "get">;

/**
 * A message from the bus as the full event handlers see. A reference event
 * (the relay's stand-in for an event larger than the NATS server's max_payload)
 * is completed from the API: the event at its seq from `GET /v1/events`, which
 * carries that exact version (also of a deleted breadcrumb); should history no
 * longer hold it, the current breadcrumb from `GET /v1/breadcrumbs/:id`.
 */
export async function fullEvent(payload: unknown, http: ReferenceHttp | undefined): Promise<BreadcrumbEvent> {
  if (!isReferenceEvent(payload)) return breadcrumbEventSchema.parse(payload) as BreadcrumbEvent;
  if (!http) {
    throw new Error(`event ${payload.seq} was too large for NATS and came as a reference; pass an API client (CrumbsClient or opts.http) to fetch it`);
  }
  return resolveReference(payload, http);
}

async function resolveReference(ref: BreadcrumbReferenceEvent, http: ReferenceHttp): Promise<BreadcrumbEvent> {
  const page = await http.events({ after: ref.seq - 1, limit: 1 });
  const exact = page.items.find((e) => e.seq === ref.seq && e.id === ref.id);
  if (exact) return exact;
  if (ref.type === "breadcrumb.deleted") {
    throw new ApiResponseError("not_found", `the deleted breadcrumb ${ref.id} of event ${ref.seq} is no longer in history`, 404);
  }
  const { truncated: _t, ...fields } = ref;
  return breadcrumbEventSchema.parse({ ...fields, breadcrumb: await http.get(ref.id) }) as BreadcrumbEvent;
}
