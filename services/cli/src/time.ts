import { UsageError } from "./errors.ts";

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const RELATIVE = /^(\d+(?:\.\d+)?)([smhdw])$/;

/**
 * `--since`/`--until` take an ISO time or a duration back from now (`30s`, `30m`, `1h`, `2d`, `1w`).
 * Returns ISO so the API gets one format whatever the user typed.
 */
export function parseTime(input: string, now: Date = new Date()): string {
  const text = input.trim();
  const rel = RELATIVE.exec(text);
  if (rel) {
    const unit = rel[2] as keyof typeof UNIT_MS;
    return new Date(now.getTime() - Number(rel[1]) * UNIT_MS[unit]).toISOString();
  }
  // Date.parse accepts odd strings like "1"; insist on something that looks like a date.
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const ms = Date.parse(text);
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  throw new UsageError(`invalid time "${input}": use an ISO time (2025-01-31T12:00:00Z) or a duration like 30m, 1h, 2d`);
}

/** `--after` is a history seq: a non-negative integer. */
export function parseSeq(input: string): number {
  if (!/^\d+$/.test(input.trim())) throw new UsageError(`invalid seq "${input}": expected a non-negative integer`);
  return Number(input.trim());
}
