import { Hono, type Context } from "hono";
import { z } from "zod";
import { createBreadcrumbBodySchema, patchBreadcrumbBodySchema, renderLlmView, type Breadcrumb, type LlmHints } from "@crumbs/schemas";
import {
  createBreadcrumb,
  deleteBreadcrumb,
  etagOf,
  getBreadcrumb,
  listBreadcrumbs,
  listHistory,
  patchBreadcrumb,
  RowPacer,
  type StoredResponse,
  type WriteResult,
} from "../../store/index.ts";
import type { AppEnv, RouteDeps } from "../context.ts";
import { readJsonBody } from "../json-body.ts";
import { breadcrumbIdParam, idempotencyParam, ifMatchVersion, limitParam, parseQuery, selectorParam } from "../params.ts";
import { checkBreadcrumbContent, checkTopLevelHints, parseWriteBody } from "../validate-write.ts";

const viewSchema = z.enum(["llm"]).optional();
const getQuery = z.object({ view: viewSchema });
const listQuery = z.object({
  schema_name: z.string().min(1).max(200).optional(),
  key: z.string().min(1).max(200).optional(),
  /** Case-insensitive substring of the title (the dashboard's title search). */
  title: z.string().min(1).max(200).optional(),
  selector: z.string().max(16_384).optional(),
  limit: limitParam(500, 50),
  cursor: z.string().max(1_000).optional(),
  view: viewSchema,
});
const historyQuery = z.object({ limit: limitParam(500, 100), cursor: z.string().max(1_000).optional() });
const tagList = z.array(z.string().min(1).max(200)).max(100);

function send(c: Context<AppEnv>, result: WriteResult | { response: StoredResponse; replayed: boolean }) {
  const { response, replayed } = result;
  if (response.etag) c.header("ETag", response.etag);
  if (replayed) c.header("Idempotent-Replayed", "true");
  if (response.status === 204) return c.body(null, 204);
  return c.json(response.body as object, response.status as 200 | 201);
}

export function breadcrumbRoutes(deps: RouteDeps) {
  const app = new Hono<AppEnv>();

  /**
   * Fails closed: a view that cannot render is 422, never the raw context. Its work counts in the
   * request's budget; a transform over its own budget is an error entry in the view.
   */
  const llmView = async (b: Breadcrumb, pacer: RowPacer) => {
    const hints = (await deps.schemaDefHints(b.owner, b.schema_name)) as LlmHints | undefined;
    const view = renderLlmView(b, hints, pacer.budget);
    await pacer.breathe();
    return view;
  };

  app.post("/", async (c) => {
    const { owner, actor } = c.get("principal");
    const raw = await readJsonBody(c, deps.bodyLimitBytes);
    const body = parseWriteBody(createBreadcrumbBodySchema, raw);
    checkTopLevelHints(body.llm_hints);
    checkBreadcrumbContent(body);
    const idempotency = idempotencyParam(c.req.header("idempotency-key"), { method: "POST", path: c.req.path, body: raw });
    return send(c, await createBreadcrumb(deps.store, { owner, actor, body, idempotency }));
  });

  app.get("/", async (c) => {
    const { owner } = c.get("principal");
    const q = parseQuery(listQuery, c.req.query());
    const tags = parseQuery(z.object({ tag: tagList, any_tag: tagList }), {
      tag: c.req.queries("tag") ?? [],
      any_tag: c.req.queries("any_tag") ?? [],
    });
    const pacer = new RowPacer();
    const page = await listBreadcrumbs(deps.database.db, owner, {
      schema_name: q.schema_name,
      key: q.key,
      title: q.title,
      tags: tags.tag,
      any_tags: tags.any_tag,
      selector: selectorParam(q.selector),
      limit: q.limit,
      cursor: q.cursor,
      pacer,
    });
    if (q.view !== "llm") return c.json(page);
    // One failing view fails the whole page (422): a partial page would hide that items are missing.
    const items = [];
    for (const b of page.items) items.push(await llmView(b, pacer));
    return c.json({ items, next_cursor: page.next_cursor });
  });

  app.get("/:id", async (c) => {
    const { owner } = c.get("principal");
    const id = breadcrumbIdParam(c.req.param("id"));
    const q = parseQuery(getQuery, c.req.query());
    const b = await getBreadcrumb(deps.database.db, owner, id);
    c.header("ETag", etagOf(b.version));
    return c.json(q.view === "llm" ? await llmView(b, new RowPacer()) : b);
  });

  app.patch("/:id", async (c) => {
    const { owner, actor } = c.get("principal");
    const id = breadcrumbIdParam(c.req.param("id"));
    const expectedVersion = ifMatchVersion(c.req.header("if-match"), true);
    const raw = await readJsonBody(c, deps.bodyLimitBytes);
    const body = parseWriteBody(patchBreadcrumbBodySchema, raw);
    checkTopLevelHints(body.llm_hints);
    const idempotency = idempotencyParam(c.req.header("idempotency-key"), {
      method: "PATCH",
      path: c.req.path,
      ifMatch: expectedVersion,
      body: raw,
    });
    const result = await patchBreadcrumb(deps.store, {
      owner,
      actor,
      id,
      expectedVersion,
      body,
      validate: body.context !== undefined ? checkBreadcrumbContent : undefined,
      idempotency,
    });
    return send(c, result);
  });

  app.delete("/:id", async (c) => {
    const { owner } = c.get("principal");
    const id = breadcrumbIdParam(c.req.param("id"));
    const expectedVersion = ifMatchVersion(c.req.header("if-match"), false);
    return send(c, await deleteBreadcrumb(deps.store, { owner, id, expectedVersion }));
  });

  app.get("/:id/history", async (c) => {
    const { owner } = c.get("principal");
    const id = breadcrumbIdParam(c.req.param("id"));
    const q = parseQuery(historyQuery, c.req.query());
    return c.json(await listHistory(deps.database.db, owner, id, q));
  });

  return app;
}
