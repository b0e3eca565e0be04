import * as z from "@crumbs/schemas/zod-mini";
import { ApiResponseError } from "@crumbs/schemas/api-errors";
import type { CrumbsApi } from "../../shared/api-client.ts";
import { backoffDelay, type BackoffOptions } from "../backoff.ts";
import type { StoredValue } from "../../shared/state/store.ts";

// The one living browser.page.context.v1 breadcrumb of this extension (docs/extension.md: key
// `browser.page.context:<extension id>`). Its id, version and the fingerprint of what it holds
// live in storage, so a restarted worker (or browser) keeps patching the same breadcrumb.

export const livingStateSchema = z.object({
  /** Which API/token this state belongs to: another one means another breadcrumb. */
  connection: z.string(),
  id: z.string(),
  version: z.number().check(z.int(), z.gte(1)),
  owner: z.string(),
  fingerprint: z.optional(z.string()),
});
export type LivingState = z.infer<typeof livingStateSchema>;

export const PAGE_CONTEXT_SCHEMA = "browser.page.context.v1";
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
  if (found) return { state: await remember(deps, found.id, found.version, found.owner, undefined), created: false };
  try {
    const b = await deps.api.create({ schema_name: PAGE_CONTEXT_SCHEMA, key, title: initial.title, tags: initial.tags, context: initial.context });
    return { state: await remember(deps, b.id, b.version, b.owner, initial.fingerprint), created: true };
  } catch (e) {
    if (e instanceof ApiResponseError && e.code === "key_conflict") {
      const b = await deps.api.get(String((e.details as { id?: unknown } | undefined)?.id));
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
 * Writes `update` into the living breadcrumb with If-Match. A 412 means someone else wrote in
 * between: take their version and try again, a bounded number of times with jitter. A 404 means it
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
      const b = await deps.api.patch(state.id, state.version, { title: update.title, tags: update.tags, context: update.context });
      return { outcome: "updated", state: await remember(deps, b.id, b.version, b.owner, update.fingerprint) };
    } catch (e) {
      if (!(e instanceof ApiResponseError)) throw e;
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
