const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 } as const;

/** `30d`, `12h`, `90m`, `45s`, `2w` or plain seconds, to seconds; undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d{1,9})([smhdw])?$/.exec(text.trim());
  if (!m) return undefined;
  const seconds = Number(m[1]) * UNIT_SECONDS[(m[2] ?? "s") as keyof typeof UNIT_SECONDS];
  return seconds > 0 ? seconds : undefined;
}
