import { MAX_TTL_SECONDS } from "./breadcrumb.ts";

const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 } as const;

/** The longest key lifetime (10 years), as for a breadcrumb's ttl_seconds: past it dates overflow. */
export const MAX_DURATION_SECONDS = MAX_TTL_SECONDS;

/**
 * `30d`, `12h`, `90m`, `45s`, `2w` or plain seconds, to seconds; undefined when
 * not a duration or outside 1 s .. 10 years.
 */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d{1,12})([smhdw])?$/.exec(text.trim());
  if (!m) return undefined;
  const seconds = Number(m[1]) * UNIT_SECONDS[(m[2] ?? "s") as keyof typeof UNIT_SECONDS];
  return seconds > 0 && seconds <= MAX_DURATION_SECONDS ? seconds : undefined;
}
