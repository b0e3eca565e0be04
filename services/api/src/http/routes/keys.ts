import { z } from "@hono/zod-openapi";
import { ForbiddenError, NotFoundError } from "../../errors.ts";
import { apiKeyListSchema, apiKeyViewSchema, createKeyBodySchema, listKeysQuerySchema, newApiKeySchema } from "@crumbs/schemas";
import { clampedExpiry, createApiKey, getApiKey, listApiKeys, revokeApiKey, type RevokedKey } from "../../keys/index.ts";
import { ADMIN_OWNER, type Principal } from "../auth.ts";
import { hasScope } from "../auth-scopes.ts";
import type { RouteDeps } from "../context.ts";
import { readJsonBody } from "../json-body.ts";
import { parseBody } from "../params.ts";
import { errors, idParam, json, jsonBody, locationHeader, named } from "../openapi/components.ts";
import { apiRoute, defineRoute, newRouter } from "../openapi/define.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ApiKey = named(apiKeyViewSchema, "ApiKey", { description: "What the API shows of a key: never the token or its hash" });
const NewApiKey = named(newApiKeySchema, "NewApiKey");
// The list's items under their component name (the contract's list, its items named).
const ApiKeyList = apiKeyListSchema.extend({ items: z.array(ApiKey) });
const idParams = idParam("The key's id");

const routes = {
  create: apiRoute({
    method: "post",
    path: "/",
    operationId: "createApiKey",
    tags: ["keys"],
    summary: "Create an API key (the token is in this answer only)",
    description:
      'A key hands out at most the scopes it holds, and a key it creates expires no later than itself (`expires_at` in the answer ' +
      'is the clamped time); only the admin of owner "default" creates keys of other owners.',
    scope: "admin",
    request: { body: jsonBody("CreateApiKey", createKeyBodySchema) },
    responses: { 201: json(NewApiKey, "Created; Location: its path", locationHeader), ...errors(400, 413) },
  }),
  list: apiRoute({
    method: "get",
    path: "/",
    operationId: "listApiKeys",
    tags: ["keys"],
    summary: "List API keys, newest first",
    scope: "admin",
    request: { query: listKeysQuerySchema },
    responses: { 200: json(ApiKeyList, "Up to 1000 keys"), ...errors(400) },
  }),
  get: apiRoute({
    method: "get",
    path: "/{id}",
    operationId: "getApiKey",
    tags: ["keys"],
    summary: "Read one API key",
    scope: "admin",
    request: { params: idParams },
    responses: { 200: json(ApiKey, "The key"), ...errors(404) },
  }),
  revoke: apiRoute({
    method: "delete",
    path: "/{id}",
    operationId: "revokeApiKey",
    tags: ["keys"],
    summary: "Revoke an API key and every key it created (transitively), at once in every API process",
    description: "Its open event streams close; so do those of the keys it created.",
    scope: "admin",
    request: { params: idParams },
    responses: { 204: { description: "Revoked (also when it already was)" }, ...errors(404) },
  }),
} as const;

/** The admin of owner `default` (CRUMBS_TOKEN or a `default` key with admin) manages every owner's keys. */
const isRootAdmin = (p: Principal) => p.owner === ADMIN_OWNER;

function forbidden(message: string): never {
  throw new ForbiddenError(message);
}

/** Another owner's key is "not found", like another owner's breadcrumb: existence does not leak. */
function keyId(id: string): string {
  if (!UUID.test(id)) throw new NotFoundError(`key ${id.slice(0, 100)} not found`);
  return id.toLowerCase();
}

/** `/v1/keys`, admin scope. */
export function keyRoutes(
  deps: Pick<RouteDeps, "database" | "bodyLimitBytes"> & {
    now: () => Date;
    /**
     * After a revocation committed, with every key it revoked (the one asked for and the keys it
     * created, transitively; empty when all already were): the one "key revoked" hook. This process
     * forgets cached keys and closes their streams at once; other replicas hear the NOTIFY.
     */
    onRevoked?: (revoked: RevokedKey[]) => void | Promise<void>;
    /** After keys of `owner` were revoked: their NATS credentials stop working (nats-auth/owner-bus.ts). */
    onOwnerKeysRevoked?: (owner: string) => Promise<void>;
  },
) {
  const app = newRouter();
  const db = deps.database.db;
  const ownerScope = (p: Principal) => (isRootAdmin(p) ? undefined : p.owner);

  defineRoute(app, routes.create, async (c) => {
    const principal = c.get("principal");
    const body = parseBody(createKeyBodySchema, await readJsonBody(c, deps.bodyLimitBytes));
    const owner = body.owner ?? principal.owner;
    if (owner !== principal.owner && !isRootAdmin(principal)) {
      forbidden(`a key of owner "${principal.owner}" may only create keys for that owner`);
    }
    // No escalation: a key hands out at most the scopes it holds itself.
    const missing = body.scopes.filter((s) => !hasScope(principal, s));
    if (missing.length) forbidden(`this token cannot grant scopes it lacks: ${missing.join(", ")}`);
    const now = deps.now();
    const key = await createApiKey(db, {
      owner,
      scopes: body.scopes,
      name: body.name,
      // No key outlives the key that created it: revoking or expiring a key ends what it granted.
      expiresAt: clampedExpiry(now, body.expires_in, principal.keyExpiresAt),
      ...(principal.keyId ? { createdBy: principal.keyId } : {}),
      now,
    });
    c.header("Location", `/v1/keys/${key.id}`);
    return c.json(key, 201);
  });

  defineRoute(app, routes.list, async (c, { query: q }) => {
    const principal = c.get("principal");
    if (!isRootAdmin(principal) && q.owner !== undefined && q.owner !== principal.owner) {
      forbidden(`a key of owner "${principal.owner}" may only list that owner's keys`);
    }
    const owner = isRootAdmin(principal) ? q.owner : principal.owner;
    return c.json({ items: await listApiKeys(db, owner) });
  });

  defineRoute(app, routes.get, async (c, { params }) => {
    const key = await getApiKey(db, keyId(params.id), ownerScope(c.get("principal")));
    if (!key) throw new NotFoundError(`key ${params.id} not found`);
    return c.json(key);
  });

  defineRoute(app, routes.revoke, async (c, { params }) => {
    const revoked = await revokeApiKey(db, keyId(params.id), ownerScope(c.get("principal")), deps.now());
    if (!revoked) throw new NotFoundError(`key ${params.id} not found`);
    await deps.onRevoked?.(revoked);
    // A revoked tree may span owners (a root admin key's keys for others): each owner's account hears it.
    for (const owner of new Set(revoked.map((k) => k.owner))) await deps.onOwnerKeysRevoked?.(owner);
    return c.body(null, 204);
  });

  return app;
}
