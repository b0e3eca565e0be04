// MV3 stops an idle worker after ~30 s. While the bus is connected the worker must stay up to
// receive actions: an extension API call every 20 s resets the idle timer, and an alarm every 30 s
// starts a stopped worker again, which reconnects from the settings in storage.

export const KEEPALIVE_ALARM = "crumbs-keepalive";
let timer: ReturnType<typeof setInterval> | undefined;

export function holdWorker(): void {
  if (timer) return;
  timer = setInterval(() => void chrome.runtime.getPlatformInfo().catch(() => {}), 20_000);
}

export function releaseWorker(): void {
  clearInterval(timer);
  timer = undefined;
}

export async function ensureAlarm(): Promise<void> {
  const existing = await chrome.alarms.get(KEEPALIVE_ALARM);
  if (!existing) await chrome.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 0.5 });
}
