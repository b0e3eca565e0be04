import { natsCredentialsBodySchema, natsCredentialsSchema, STREAM_NAME } from "@crumbs/schemas";
import { ForbiddenError, UnavailableError } from "../../errors.ts";
import {
  extensionActionSubject,
  extensionConsumerName,
  extensionInboxPrefix,
  OWNER_PATTERN,
  type OwnerClient,
} from "../../nats-auth/index.ts";
import type { OwnerBus } from "../../nats-auth/owner-bus.ts";
import { readJsonBody } from "../json-body.ts";
import { parseBody } from "../params.ts";
import { errors, json, jsonBody, named } from "../openapi/components.ts";
import { apiRoute, defineRoute, newRouter } from "../openapi/define.ts";

const NatsCredentials = named(natsCredentialsSchema, "NatsCredentials");

const route = apiRoute({
  method: "post",
  path: "/credentials",
  operationId: "createNatsCredentials",
  tags: ["nats"],
  summary: "Mint NATS credentials limited to this token's owner",
  description:
    "A user of the owner's own NATS account, which holds only this owner's events (its `CRUMBS` stream) and its replays (SECURITY.md, NATS). Valid until `ttl_seconds` or the key's own expiry, whichever comes first; revoking the key disconnects it. Nothing is stored, so the answer is 200, not 201. An empty body asks for the defaults.",
  scope: "subscribe",
  request: { body: { ...jsonBody("NatsCredentialsRequest", natsCredentialsBodySchema), required: false } },
  responses: { 200: json(NatsCredentials, "The credentials"), ...errors(400, 413, 503) },
});

/** `POST /v1/nats/credentials` (subscribe scope): a user of the token's owner's NATS account. */
export function natsCredentialRoutes(deps: { ownerBus: OwnerBus | undefined; servers: string[]; bodyLimitBytes: number }) {
  const app = newRouter();
  defineRoute(app, route, async (c) => {
    const { owner, actor, keyId, keyExpiresAt } = c.get("principal");
    // An empty POST asks for the defaults.
    const empty = c.req.raw.body === null || c.req.header("content-length") === "0";
    const body = parseBody(natsCredentialsBodySchema, empty ? {} : await readJsonBody(c, deps.bodyLimitBytes));
    if (!deps.ownerBus) {
      throw new UnavailableError("this API mints no NATS credentials: CRUMBS_NATS_ACCOUNT_SEED is not set");
    }
    if (!OWNER_PATTERN.test(owner)) {
      throw new ForbiddenError(`owner "${owner}" cannot be expressed as a NATS subject token`);
    }
    // The schema allows extension_id with kind "extension" only, and requires it there.
    const client: OwnerClient = body.extension_id !== undefined ? { kind: "extension", extensionId: body.extension_id } : { kind: "agent" };
    const creds = await deps.ownerBus.mint(owner, client, {
      name: `${owner}/${body.kind}/${actor}`,
      ttlSeconds: body.ttl_seconds,
      ...(keyId ? { keyId } : {}),
      ...(keyExpiresAt ? { notAfter: keyExpiresAt } : {}),
    });
    // What the extension must use for its consumer to fall inside the permissions.
    const bus =
      client.kind === "extension"
        ? {
            stream: STREAM_NAME,
            consumer: extensionConsumerName(owner, client.extensionId),
            filter_subject: extensionActionSubject(owner),
            inbox_prefix: extensionInboxPrefix(owner),
          }
        : undefined;
    return c.json({ owner, kind: body.kind, ...creds, servers: deps.servers, ...(bus ? { extension: bus } : {}) }, 200);
  });
  return app;
}
