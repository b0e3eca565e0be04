import * as z from "./zod-mini.ts";

// browser.context.interest.v1: a lease saying "someone listens for this owner's page context". The
// extension captures the page (and writes browser.page.context.v1) only while at least one live lease
// names it or any browser; with none it reads nothing of the page. A lease is a breadcrumb written with
// `ttl_seconds`, so a holder that dies stops counting when its expiry passes, with no cleanup: the
// store's sweeper deletes it (a `deleted` event), and the extension also drops it at its expiry by its
// own clock. A holder renews by extending its lease in place (a PATCH of `ttl_seconds`, one `updated`
// event, before the expiry), so the extension never sees a moment with none; a clean stop deletes it.
// Written with zod/mini (./zod-mini.ts): the extension bundles it.

export const INTEREST_SCHEMA = "browser.context.interest.v1";
/** The schema a lease asks the extension to keep current. */
export const PAGE_CONTEXT_SCHEMA = "browser.page.context.v1";
export const INTEREST_TAG = "browser:context-interest";

/**
 * The lease's timing, in one place: each lease lives 60 s and its holder extends it every 20 s, so
 * two renewals may fail (an API restart, a slow network) before listeners see the holder gone, and a
 * holder that died stops counting within a minute.
 */
export const INTEREST_TTL_SECONDS = 60;
export const INTEREST_RENEW_MS = 20_000;

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

export const interestContextSchema = z.looseObject({
  holder: z.looseObject({
    id: text(200).check(z.describe("Who holds it, stable across its renewals: e.g. runner:<instance id>, sdk:<uuid>")),
    label: text(200).check(z.describe('What the user reads in the side panel, e.g. "runner: 3 agents" or "sdk: my-agent"')),
  }),
  /** The browser it wants: one extension by id; absent means any of the owner's browsers. */
  target: z.optional(z.looseObject({ extension_id: z.optional(text(200)) })),
});
export type InterestContext = z.infer<typeof interestContextSchema>;

/** Whether a lease's context asks the extension `extensionId` to capture (a lease that names no target asks every one). */
export function interestAppliesTo(context: InterestContext, extensionId: string): boolean {
  const wanted = context.target?.extension_id;
  return wanted === undefined || wanted === extensionId;
}

/** The create body of a lease: what a holder (the SDK, the runner, or curl) sends to POST /v1/breadcrumbs. */
export function interestLeaseBody(holder: { id: string; label: string }, target?: { extension_id?: string }, ttlSeconds = INTEREST_TTL_SECONDS) {
  const context: InterestContext = { holder, ...(target ? { target } : {}) };
  return {
    schema_name: INTEREST_SCHEMA,
    title: `Page context wanted by ${holder.label}`.slice(0, 500),
    tags: [INTEREST_TAG, ...(target?.extension_id ? [`extension:${target.extension_id}`] : [])],
    context,
    ttl_seconds: ttlSeconds,
  };
}
