import { nanos, RetentionPolicy, StorageType, type NatsConnection } from "nats";
import { STREAM_NAME, STREAM_SUBJECTS } from "@crumbs/schemas";

/** The relay republishes after an outage; the dedup window must outlast any such retry. */
export const DUPLICATE_WINDOW_MS = 5 * 60_000;

export interface StreamOptions {
  /**
   * Copies of every message across a NATS cluster (CRUMBS_STREAM_REPLICAS). 3 survives the loss
   * of any one server without losing an acknowledged publish; 1 is all a single server can hold.
   */
  replicas?: number;
}

/**
 * Creates the CRUMBS stream, or brings an existing one to this config: widens its dedup window
 * if an older config made it too short, and moves it to the asked number of replicas.
 */
export async function ensureStream(nc: NatsConnection, opts: StreamOptions = {}): Promise<void> {
  const replicas = opts.replicas ?? 1;
  const jsm = await nc.jetstreamManager();
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
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      num_replicas: replicas,
    });
    return;
  }
  const windowTooShort = info.config.duplicate_window < nanos(2 * 60_000);
  if (windowTooShort || info.config.num_replicas !== replicas) {
    await jsm.streams.update(STREAM_NAME, {
      ...info.config,
      ...(windowTooShort ? { duplicate_window: nanos(DUPLICATE_WINDOW_MS) } : {}),
      num_replicas: replicas,
    });
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { code?: string; api_error?: { err_code?: number } };
  return e?.api_error?.err_code === 10059 || e?.code === "404";
}
