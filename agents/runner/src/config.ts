import { accessSync, constants } from "node:fs";
import { z } from "zod";
import { natsUrlSetting } from "@crumbs/schemas";
import { ConfigError, LOG_FORMATS, LOG_LEVELS } from "@crumbs/telemetry";
import { DEFAULT_MEMORY_TOKENS } from "./memory/fit.ts";

const optionalUrl = z.url().optional();
/**
 * Triggers per agent in flight at once: a model answers in seconds, so one at a time would make
 * every other conversation wait for it. Each session's triggers still go one after another.
 */
export const DEFAULT_CONCURRENCY = 8;
/** A whole number from 1 to `max`: a typo such as an extra zero is refused, not obeyed for hours. */
const positiveInt = (fallback: number, max: number) => z.coerce.number().int().positive().max(max).default(fallback);

const readable = (path: string) => {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
};

const envSchema = z.object({
  CRUMBS_URL: z.url().default("http://127.0.0.1:8081"),
  // Optional here: `crumbs runner` may find the dev token itself; startRunner insists on one.
  CRUMBS_TOKEN: z.string().min(1).optional(),
  NATS_URL: natsUrlSetting,
  // A path, read at connect time: a locked NATS (docker compose) refuses the runner without it.
  NATS_CREDS: z
    .string()
    .superRefine((path, ctx) => {
      if (!readable(path))
        ctx.addIssue({
          code: "custom",
          message: `cannot read ${path}: a readable .creds file is needed (runner.creds from \`crumbs keys nats-init\`)`,
        });
    })
    .optional(),
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENROUTER_API_KEY: z.string().min(1).optional(),
  OPENROUTER_BASE_URL: optionalUrl,
  RUNNER_MODEL_TIMEOUT_MS: positiveInt(60_000, 600_000),
  RUNNER_MAX_STEPS: positiveInt(8, 100),
  RUNNER_ACK_WAIT_MS: positiveInt(10_000, 600_000),
  RUNNER_CONCURRENCY: positiveInt(DEFAULT_CONCURRENCY, 256),
  // 0 turns session memory off.
  RUNNER_MEMORY_TOKENS: z.coerce.number().int().min(0).max(200_000).default(DEFAULT_MEMORY_TOKENS),
  RUNNER_HEALTH_FILE: z.string().min(1).optional(),
  /** Unset: no /metrics server (in `crumbs start` the API's /metrics has the runner's series). */
  RUNNER_METRICS_PORT: z.coerce.number().int().min(0, "a port from 0 to 65535").max(65535, "a port from 0 to 65535").optional(),
  RUNNER_METRICS_HOST: z.string().min(1).default("0.0.0.0"),
  /** Checked here so a bad value stops the runner too; the process logger (@crumbs/telemetry) reads them. */
  LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
});

/** Every variable loadRunnerConfig reads; anything else in the environment is ignored. */
export const RUNNER_ENV_VARS: readonly string[] = Object.keys(envSchema.shape);

/** What startRunner needs; the CLI builds it from the environment with loadRunnerConfig. */
export interface RunnerConfig {
  crumbsUrl: string;
  token: string;
  natsUrl: string;
  /** Path to the runner's NATS .creds file (or its contents); unset means an open server. */
  natsCreds?: string | undefined;
  openaiBaseUrl?: string | undefined;
  openaiApiKey?: string | undefined;
  openrouterApiKey?: string | undefined;
  openrouterBaseUrl?: string | undefined;
  modelTimeoutMs?: number;
  maxSteps?: number;
  ackWaitMs?: number;
  /** Triggers one agent handles at once in this process, each session's one after another. */
  concurrency?: number;
  /** Tokens of session history per prompt (docs/agents.md, "Memory"); 0 turns memory off. */
  memoryTokens?: number;
  /** Touched every few seconds while connected to NATS; a container health check reads its age. */
  healthFile?: string | undefined;
  /** GET /metrics on this port (0: a free one); unset: none. */
  metricsPort?: number | undefined;
  metricsHost?: string | undefined;
}

/** A bad environment at start (every problem found): the one ConfigError of every app. */
export { ConfigError };

/** Parse the runner's environment once; a bad value names the variable. */
export function loadRunnerConfig(
  env: Record<string, string | undefined> = process.env,
): Omit<RunnerConfig, "token"> & { token?: string | undefined } {
  // Empty strings come from `FOO=` in compose files and mean "not set".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) throw ConfigError.fromIssues(parsed.error.issues);
  const e = parsed.data;
  return {
    crumbsUrl: e.CRUMBS_URL,
    token: e.CRUMBS_TOKEN,
    natsUrl: e.NATS_URL,
    natsCreds: e.NATS_CREDS,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    openaiApiKey: e.OPENAI_API_KEY,
    openrouterApiKey: e.OPENROUTER_API_KEY,
    openrouterBaseUrl: e.OPENROUTER_BASE_URL,
    modelTimeoutMs: e.RUNNER_MODEL_TIMEOUT_MS,
    maxSteps: e.RUNNER_MAX_STEPS,
    ackWaitMs: e.RUNNER_ACK_WAIT_MS,
    concurrency: e.RUNNER_CONCURRENCY,
    memoryTokens: e.RUNNER_MEMORY_TOKENS,
    healthFile: e.RUNNER_HEALTH_FILE,
    metricsPort: e.RUNNER_METRICS_PORT,
    metricsHost: e.RUNNER_METRICS_HOST,
  };
}
