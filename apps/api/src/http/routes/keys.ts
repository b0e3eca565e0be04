import { Hono } from "hono";
import { ForbiddenError, NotFoundError } from "../../errors.ts";
import { createApiKey, createKeyBodySchema, listApiKeys, listKeysQuerySchema, revokeApiKey } from "../../keys/index.ts";
import { ADMIN_OWNER, type Principal } from "../auth.ts";
import { hasScope } from "../auth-scopes.ts";
import type { AppEnv, RouteDeps } from "../context.ts";
import { readJsonBody } from "../json-body.ts";
import { parseBody, parseQuery } from "../params.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The admin of owner `default` (CRUMBS_TOKEN or a `default` key with admin) manages every owner's keys. */
const isRootAdmin = (p: Principal) => p.owner === ADMIN_OWNER;

function forbidden(message: string): never {
  throw new ForbiddenError(message);
}

/** `POST/GET/DELETE /v1/keys`, admin scope (checked by the scope middleware). */
export function keyRoutes(
  deps: Pick<RouteDeps, "database" | "bodyLimitBytes"> & {
    now: () => Date;
    /** This process forgets cached keys at once; other replicas hear the NOTIFY. */
    onRevoked?: () => void;
  },
) {
  const app = new Hono<AppEnv>();
  const db = deps.database.db;

  app.post("/", async (c) => {
    const principal = c.get("principal");
    const body = parseBody(createKeyBodySchema, await readJsonBody(c, deps.bodyLimitBytes));
    const owner = body.owner ?? principal.owner;
    if (owner !== principal.owner && !isRootAdmin(principal)) {
      forbidden(`a key of owner "${principal.owner}" may only create keys for that owner`);
    }
    // No escalation: a key hands out at most the scopes it holds itself.
    const missing = body.scopes.filter((s) => !hasScope(principal, s));
    if (missing.length) forbidden(`this token cannot grant scopes it lacks: ${missing.join(", ")}`);
    const key = await createApiKey(db, {
      owner,
      scopes: body.scopes,
      name: body.name,
      expiresInSeconds: body.expires_in,
      now: deps.now(),
    });
    return c.json(key, 201);
  });

  app.get("/", async (c) => {
    const principal = c.get("principal");
    const q = parseQuery(listKeysQuerySchema, c.req.query());
    if (!isRootAdmin(principal) && q.owner !== undefined && q.owner !== principal.owner) {
      forbidden(`a key of owner "${principal.owner}" may only list that owner's keys`);
    }
    const owner = isRootAdmin(principal) ? q.owner : principal.owner;
    return c.json({ items: await listApiKeys(db, owner) });
  });

  app.delete("/:id", async (c) => {
    const principal = c.get("principal");
    const id = c.req.param("id");
    // Another owner's key is "not found", like another owner's breadcrumb: existence does not leak.
    if (!UUID.test(id)) throw new NotFoundError(`key ${id.slice(0, 100)} not found`);
    const found = await revokeApiKey(db, id.toLowerCase(), isRootAdmin(principal) ? undefined : principal.owner, deps.now());
    if (!found) throw new NotFoundError(`key ${id} not found`);
    deps.onRevoked?.();
    return c.body(null, 204);
  });

  return app;
}
