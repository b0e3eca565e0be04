import * as z from "@crumbs/schemas/zod-mini";

// The connection settings the options page writes (docs/extension.md, "Settings": keys apiUrl, token,
// natsWsUrl, allowlist in chrome.storage.local). `owner` is optional: the API tells us the owner of the
// token when the living breadcrumb is created; the option only matters before that.
// `natsCredentialsTtl` is the lifetime in seconds the worker asks the API for when it fetches NATS
// credentials (the API's default and limits apply); shorter means a revoked token's credentials stop
// working sooner.

export const CONFIG_KEYS = ["apiUrl", "token", "natsWsUrl", "allowlist", "owner", "natsCredentialsTtl"] as const;

const httpUrl = z.pipe(
  z.string().check(z.trim(), z.regex(/^https?:\/\/[^\s/]+/, "must be an http(s) URL, e.g. http://127.0.0.1:8081")),
  z.transform((u) => u.replace(/\/+$/, "")),
);

export const configSchema = z.object({
  apiUrl: httpUrl,
  token: z.string().check(z.trim(), z.minLength(1, "is required")),
  natsWsUrl: z.string().check(z.trim(), z.regex(/^wss?:\/\/[^\s/]+/, "must be a ws:// or wss:// URL, e.g. ws://127.0.0.1:9222")),
  allowlist: z.optional(z.array(z.string().check(z.trim(), z.minLength(1)))),
  owner: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))),
  natsCredentialsTtl: z.optional(z.number().check(z.int(), z.gte(1))),
});
export type Config = z.infer<typeof configSchema>;

/** The stored settings, or undefined with the reason when they are missing or invalid. */
export async function readConfig(): Promise<{ ok: true; config: Config } | { ok: false; reason: string }> {
  const raw = await chrome.storage.local.get([...CONFIG_KEYS]);
  if (!raw.apiUrl || !raw.token || !raw.natsWsUrl) {
    return { ok: false, reason: "not configured: set the API URL, token and NATS WebSocket URL in the options page" };
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `invalid setting ${String(issue?.path[0] ?? "")}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, config: parsed.data };
}

/** Identity of a connection: a change of any of these means a new connection and a new owner. */
export function connectionKey(c: Config): string {
  return JSON.stringify([c.apiUrl, c.token, c.natsWsUrl]);
}
