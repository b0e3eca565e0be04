import { z } from "zod";

const DURATION = /^(\d+)\s*(s|m|h|d)$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;

/** "7d", "12h", "30m", "45s" or a number of seconds. */
const durationSeconds = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(DURATION, 'a duration like "7d", "12h", "30m" or "45s"')
    .transform((s) => {
      const [, n, unit] = DURATION.exec(s) as RegExpExecArray;
      return Number(n) * UNIT_SECONDS[unit as keyof typeof UNIT_SECONDS];
    }),
], { error: 'must be a duration like "7d", "12h", "30m", "45s" or a number of seconds' });

const ruleSchema = z.strictObject({
  max_versions: z.number().int().min(1).optional(),
  max_age: durationSeconds.optional(),
});

/** `CRUMBS_RETENTION`: schema name -> rule; `null` keeps that schema's history forever. */
export const retentionEnvSchema = z.record(z.string().min(1).max(200), ruleSchema.nullable());

export interface RetentionRule {
  maxVersions?: number;
  maxAgeSeconds?: number;
}

/** schema_name -> rule; schemas absent from the map keep their whole history. */
export type RetentionPolicy = ReadonlyMap<string, RetentionRule>;

/**
 * The living page breadcrumb is rewritten on every navigation and scroll, so
 * without a bound its history grows for as long as a browser is open.
 */
export const DEFAULT_RETENTION: Readonly<Record<string, RetentionRule>> = {
  "browser.page.context.v1": { maxVersions: 1_000, maxAgeSeconds: 7 * 86_400 },
};

/** Defaults, then the configured rules (a configured schema replaces its default; `null` removes it). */
export function buildRetentionPolicy(configured: z.infer<typeof retentionEnvSchema> = {}): RetentionPolicy {
  const out = new Map<string, RetentionRule>(Object.entries(DEFAULT_RETENTION));
  for (const [schema, rule] of Object.entries(configured)) {
    if (rule === null) {
      out.delete(schema);
      continue;
    }
    const r: RetentionRule = {};
    if (rule.max_versions !== undefined) r.maxVersions = rule.max_versions;
    if (rule.max_age !== undefined) r.maxAgeSeconds = rule.max_age;
    if (r.maxVersions === undefined && r.maxAgeSeconds === undefined) out.delete(schema);
    else out.set(schema, r);
  }
  return out;
}

/** Parses the raw `CRUMBS_RETENTION` text; the message names what is wrong. */
export function parseRetentionEnv(text: string | undefined): RetentionPolicy {
  if (text === undefined || text.trim() === "") return buildRetentionPolicy();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error('must be JSON, e.g. {"browser.page.context.v1": {"max_versions": 100, "max_age": "7d"}}');
  }
  const parsed = retentionEnvSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue?.path.join(".") || "value"}: ${issue?.message ?? "invalid"}`);
  }
  return buildRetentionPolicy(parsed.data);
}
