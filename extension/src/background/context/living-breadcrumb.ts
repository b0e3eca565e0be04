import * as z from "@crumbs/schemas/zod-mini";
import { ApiResponseError } from "@crumbs/agent-sdk/http";
import { jsonEqual, mergePatchBetween } from "@crumbs/schemas/merge-patch";
import { PAGE_CONTEXT_SCHEMA } from "@crumbs/schemas/interest";
import type { Breadcrumb, CrumbsApi, PatchBody } from "../../shared/api-client.ts";
import { backoffDelay, type BackoffOptions } from "../backoff.ts";
import type { StoredValue } from "../../shared/state/store.ts";

// The one living browser.page.context.v1 breadcrumb of this extension (docs/extension.md: key
// `browser.page.context:<extension id>`). Its id, version and the fingerprint of what it holds
// live in storage, so a restarted worker (or browser) keeps patching the same breadcrumb.
// After a write the worker keeps the API's answer in memory: the next update sends only what changed
// against it, as a JSON merge patch (a scroll and a new paragraph on the reference page: a few hundred
// bytes instead of the whole context, BENCHMARKS.md "Page-context updates"). A restarted worker has no
// such base and writes its first update in full.

export const livingStateSchema = z.object({
  /** Which API/token this state belongs to: another one means another breadcrumb. */
  connection: z.string(),
  id: z.string(),
  version: z.number().check(z.int(), z.gte(1)),
  owner: z.string(),
  fingerprint: z.optional(z.string()),
});
export type LivingState = z.infer<typeof livingStateSchema>;

export const livingKey = (extensionId: string) => `browser.page.context:${extensionId}`;

/** 412 retries: a few quick attempts with jitter, then the update is dropped (the next trigger retries). */
export const CONFLICT_BACKOFF: BackoffOptions = { baseMs: 40, maxMs: 400, jitter: 0.7 };
export const MAX_CONFLICT_RETRIES = 4;

export interface LivingDeps {
  api: CrumbsApi;
  extensionId: string;
  connection: string;
  state: StoredValue<LivingState | null>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The breadcrumb as the API last answered it to this worker: the base of the next merge patch. */
  lastWritten?: { current?: Breadcrumb | undefined };
}

export interface PageUpdate {
  title: string;
  tags: string[];
  context: Record<string, unknown>;
  fingerprint: string;
}

const sleeper = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Finds the living breadcrumb by its key, or creates it; a concurrent creator's breadcrumb is reused. */
export async function ensureLiving(deps: LivingDeps, initial: PageUpdate): Promise<{ state: LivingState; created: boolean }> {
  const saved = await deps.state.get();
  if (saved && saved.connection === deps.connection) return { state: saved, created: false };
  const key = livingKey(deps.extensionId);
  const [found] = await deps.api.list({ key, limit: 1 });
  if (found) {
    if (deps.lastWritten) deps.lastWritten.current = found;
    return { state: await remember(deps, found.id, found.version, found.owner, undefined), created: false };
  }
  try {
    const b = await deps.api.create({ schema_name: PAGE_CONTEXT_SCHEMA, key, title: initial.title, tags: initial.tags, context: initial.context });
    if (deps.lastWritten) deps.lastWritten.current = b;
    return { state: await remember(deps, b.id, b.version, b.owner, initial.fingerprint), created: true };
  } catch (e) {
    if (e instanceof ApiResponseError && e.code === "key_conflict") {
      const b = await deps.api.get(String((e.details as { id?: unknown } | undefined)?.id));
      if (deps.lastWritten) deps.lastWritten.current = b;
      return { state: await remember(deps, b.id, b.version, b.owner, undefined), created: false };
    }
    throw e;
  }
}

async function remember(deps: LivingDeps, id: string, version: number, owner: string, fingerprint: string | undefined) {
  const state: LivingState = { connection: deps.connection, id, version, owner, ...(fingerprint ? { fingerprint } : {}) };
  await deps.state.set(state);
  return state;
}

export type WriteOutcome = "created" | "updated" | "unchanged";

/**
 * Writes `update` into the living breadcrumb with If-Match: as a merge patch against what this worker
 * last wrote when it holds that version, else in full. A 412 means someone else wrote in between:
 * take their version and try again in full, a bounded number of times with jitter. A 404 means it
 * was deleted: forget it and create it again.
 */
export async function writeLiving(deps: LivingDeps, update: PageUpdate): Promise<{ outcome: WriteOutcome; state: LivingState }> {
  const sleep = deps.sleep ?? sleeper;
  const { state: first, created } = await ensureLiving(deps, update);
  if (created) return { outcome: "created", state: first };
  if (first.fingerprint === update.fingerprint) return { outcome: "unchanged", state: first };
  let state = first;
  for (let attempt = 0; ; attempt++) {
    try {
      const base = deps.lastWritten?.current;
      const patch = base?.id === state.id && base.version === state.version ? mergePatchOf(base, update) : undefined;
      if (patch === "same") return { outcome: "unchanged", state: await remember(deps, state.id, state.version, state.owner, update.fingerprint) };
      const b = patch
        ? await deps.api.mergePatch(state.id, state.version, patch)
        : await deps.api.patch(state.id, state.version, { title: update.title, tags: update.tags, context: update.context });
      if (deps.lastWritten) deps.lastWritten.current = b;
      return { outcome: "updated", state: await remember(deps, b.id, b.version, b.owner, update.fingerprint) };
    } catch (e) {
      if (!(e instanceof ApiResponseError)) throw e;
      // Whatever this worker last wrote is no longer what the breadcrumb holds: the retry writes in full.
      if (deps.lastWritten) deps.lastWritten.current = undefined;
      if (e.status === 404) {
        await deps.state.set(null);
        const again = await ensureLiving(deps, update);
        if (again.created) return { outcome: "created", state: again.state };
        state = again.state;
        continue;
      }
      if (e.status !== 412 || attempt >= MAX_CONFLICT_RETRIES) throw e;
      const current = Number((e.details as { current_version?: unknown } | undefined)?.current_version);
      const version = Number.isInteger(current) && current >= 1 ? current : (await deps.api.get(state.id)).version;
      state = { ...state, version };
      await sleep(backoffDelay(attempt, CONFLICT_BACKOFF, deps.random));
    }
  }
}

/**
 * The merge patch taking `base` to `update`: changed title, tags and the changed part of the
 * context. "same" when nothing differs; undefined when the context change has no merge patch (a
 * member newly set to null), which is then written in full.
 */
function mergePatchOf(base: Breadcrumb, update: PageUpdate): PatchBody | "same" | undefined {
  const context = mergePatchBetween(base.context, update.context);
  if (context === undefined && !jsonEqual(base.context, update.context)) return undefined;
  const body: PatchBody = {
    ...(base.title === update.title ? {} : { title: update.title }),
    ...(jsonEqual(base.tags, update.tags) ? {} : { tags: update.tags }),
    ...(context ? { context } : {}),
  };
  return Object.keys(body).length === 0 ? "same" : body;
}
