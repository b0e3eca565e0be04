import { nanos, RetentionPolicy, StorageType, type NatsConnection } from "nats";
import { STREAM_NAME, STREAM_SUBJECTS } from "@crumbs/schemas";

/** The relay republishes after an outage; the dedup window must outlast any such retry. */
export const DUPLICATE_WINDOW_MS = 5 * 60_000;

/** Creates the CRUMBS stream, or widens its dedup window if an older config made it too short. */
export async function ensureStream(nc: NatsConnection): Promise<void> {
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
    });
    return;
  }
  if (info.config.duplicate_window < nanos(2 * 60_000)) {
    await jsm.streams.update(STREAM_NAME, { ...info.config, duplicate_window: nanos(DUPLICATE_WINDOW_MS) });
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { code?: string; api_error?: { err_code?: number } };
  return e?.api_error?.err_code === 10059 || e?.code === "404";
}
