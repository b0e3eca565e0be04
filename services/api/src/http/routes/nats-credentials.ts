import { Hono } from "hono";
import { z } from "zod";
import { ApiError } from "../../errors.ts";
import { mintUser, ownerPermissions, OWNER_PATTERN } from "../../nats-auth/index.ts";
import type { AppEnv } from "../context.ts";
import { readJsonBody } from "../json-body.ts";
import { parseBody } from "../params.ts";

/**
 * Short-lived by default: the memory resolver cannot revoke one user, so a
 * revoked API key's NATS credentials stay valid until they expire.
 */
const bodySchema = z.strictObject({
  kind: z.enum(["agent", "extension"]).default("agent"),
  ttl_seconds: z.number().int().min(60).max(86_400).default(3_600),
});

/** `POST /v1/nats/credentials` (subscribe scope): a NATS user limited to the token's owner's subjects. */
export function natsCredentialRoutes(deps: { accountSeed?: string; bodyLimitBytes: number; now: () => Date }) {
  const app = new Hono<AppEnv>();
  app.post("/credentials", async (c) => {
    const { owner, actor } = c.get("principal");
    // An empty POST asks for the defaults.
    const empty = c.req.raw.body === null || c.req.header("content-length") === "0";
    const body = parseBody(bodySchema, empty ? {} : await readJsonBody(c, deps.bodyLimitBytes));
    if (!deps.accountSeed) {
      throw new ApiError("unavailable", 503, "this API mints no NATS credentials: CRUMBS_NATS_ACCOUNT_SEED is not set");
    }
    if (!OWNER_PATTERN.test(owner)) {
      throw new ApiError("forbidden", 403, `owner "${owner}" cannot be expressed as a NATS subject token`);
    }
    const creds = mintUser({
      accountSeed: deps.accountSeed,
      name: `${owner}/${body.kind}/${actor}`,
      permissions: ownerPermissions(owner, body.kind),
      ttlSeconds: body.ttl_seconds,
      now: deps.now(),
    });
    return c.json({ owner, kind: body.kind, ...creds }, 201);
  });
  return app;
}
