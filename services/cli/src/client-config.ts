import { z } from "zod";
import { CrumbsHttp } from "@crumbs/agent-sdk";
import type { CliContext } from "./context.ts";
import { CliError } from "./errors.ts";
import { readDevToken, readRecordedApiUrl } from "./dev-token.ts";

const DEFAULT_CRUMBS_URL = "http://127.0.0.1:8081";

const clientEnvSchema = z.object({
  CRUMBS_URL: z
    .string()
    .default(DEFAULT_CRUMBS_URL)
    .pipe(z.url({ protocol: /^https?$/, error: "CRUMBS_URL must be an http(s) URL" })),
  CRUMBS_TOKEN: z.string().trim().min(1, "CRUMBS_TOKEN is empty").optional(),
});

export type ClientConfig = { url: string; token: string };

/**
 * Client commands find the API through CRUMBS_URL and authenticate with CRUMBS_TOKEN; without them
 * they use what `npm start` left in .crumbs/ of the current directory: the URL it served on (PORT
 * of its .env included) and the dev token. Neither: http://127.0.0.1:8081.
 */
export async function loadClientConfig(env: NodeJS.ProcessEnv, cwd: string): Promise<ClientConfig> {
  const parsed = clientEnvSchema.safeParse({
    CRUMBS_URL: env.CRUMBS_URL || (await readRecordedApiUrl(cwd)),
    CRUMBS_TOKEN: env.CRUMBS_TOKEN || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError("config_error", `${issue?.path.join(".") ?? "environment"}: ${issue?.message ?? "invalid"}`);
  }
  const token = parsed.data.CRUMBS_TOKEN ?? (await readDevToken(cwd));
  if (!token) {
    throw new CliError(
      "no_token",
      "set CRUMBS_TOKEN, or run this where `npm start` ran (it keeps the dev token in .crumbs/dev-token)",
    );
  }
  return { url: parsed.data.CRUMBS_URL.replace(/\/+$/, ""), token };
}

/** The SDK's client for the API of CRUMBS_URL and CRUMBS_TOKEN: what every client command calls. */
export async function apiClient(ctx: Pick<CliContext, "env" | "cwd" | "fetch">): Promise<CrumbsHttp> {
  return new CrumbsHttp({ ...(await loadClientConfig(ctx.env, ctx.cwd)), fetch: ctx.fetch });
}
