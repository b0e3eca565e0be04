import { DiscardPolicy, nanos, RetentionPolicy, StorageType, type NatsConnection, type StreamConfig } from "nats";
import { STREAM_NAME, STREAM_SUBJECTS } from "@crumbs/schemas";

/** The relay republishes after an outage; the dedup window must outlast any such retry. */
export const DUPLICATE_WINDOW_MS = 5 * 60_000;

/**
 * How far the stream may grow. Past either limit JetStream drops the oldest
 * events (discard old), so writers are never refused; history in Postgres
 * stays the record and `/v1/events` replays what the stream no longer holds.
 */
export interface StreamLimits {
  maxAgeSeconds: number;
  maxBytes: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxAgeSeconds: 7 * 86_400, maxBytes: 1024 ** 3 };

/** The part of the config the API owns; the rest of an existing stream is left as it is. */
export function limitsConfig(limits: StreamLimits) {
  return {
    max_age: nanos(limits.maxAgeSeconds * 1000),
    max_bytes: limits.maxBytes,
    discard: DiscardPolicy.Old,
    // JetStream refuses a dedup window longer than max_age.
    duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, limits.maxAgeSeconds * 1000)),
  } satisfies Partial<StreamConfig>;
}

/**
 * Creates the CRUMBS stream, or brings an existing one to the configured limits, dedup window and
 * replicas. `replicas` is the copies of every message across a NATS cluster: 3 survives the loss of
 * any one server without losing an acknowledged publish; 1 is all a single server can hold.
 */
export async function ensureStream(
  nc: NatsConnection,
  limits: StreamLimits = DEFAULT_STREAM_LIMITS,
  replicas = 1,
): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const want = limitsConfig(limits);
  const info = await jsm.streams.info(STREAM_NAME).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
  if (!info) {
    await jsm.streams.add({
      name: STREAM_NAME,
      subjects: [...STREAM_SUBJECTS],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      ...want,
      num_replicas: replicas,
    });
    return;
  }
  const c = info.config;
  // A dedup window shorter than ours would let a republish after an outage through; a longer one is kept.
  const dedup = c.duplicate_window < want.duplicate_window ? want.duplicate_window : c.duplicate_window;
  const same =
    c.max_age === want.max_age && c.max_bytes === want.max_bytes && c.discard === want.discard && dedup === c.duplicate_window;
  if (same && c.num_replicas === replicas) return;
  await jsm.streams.update(STREAM_NAME, {
    ...c,
    ...want,
    duplicate_window: dedup > want.max_age ? want.max_age : dedup,
    num_replicas: replicas,
  });
}

function isNotFound(err: unknown): boolean {
  const e = err as { code?: string; api_error?: { err_code?: number } };
  return e?.api_error?.err_code === 10059 || e?.code === "404";
}
