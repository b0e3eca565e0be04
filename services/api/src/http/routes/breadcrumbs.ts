import type { Context } from "hono";
import { z } from "@hono/zod-openapi";
import {
  createBreadcrumbBodySchema,
  MERGE_PATCH_CONTENT_TYPE,
  mergePatchBreadcrumbBodySchema,
  patchBreadcrumbBodySchema,
  renderLlmView,
  type Breadcrumb,
  type LlmHints,
} from "@crumbs/schemas";
import {
  createBreadcrumb,
  deleteBreadcrumb,
  etagOf,
  getBreadcrumb,
  JsonText,
  listBreadcrumbs,
  listHistory,
  mergePatchBreadcrumb,
  patchBreadcrumb,
  RowPacer,
  type StoredResponse,
  type WriteResult,
} from "../../store/index.ts";
import { conditionalJson } from "../conditional.ts";
import { ownerRead } from "../owner-read.ts";
import type { AppEnv, RouteDeps } from "../context.ts";
import { readJsonBody } from "../json-body.ts";
import { breadcrumbIdParam, idempotencyParam, ifMatchVersion, limitParam, selectorParam } from "../params.ts";
import { breadcrumbContentCheck, checkBreadcrumbContent, checkTopLevelHints, parseWriteBody } from "../validate-write.ts";
import {
  Breadcrumb as BreadcrumbDoc,
  BreadcrumbOrView,
  errors,
  etagHeader,
  HistoryItem,
  idParam,
  idempotencyKeyHeader,
  ifMatchHeader,
  ifNoneMatchHeader,
  json,
  jsonBody,
  LlmView,
  locationHeader,
  notModified,
  selectorQuery,
} from "../openapi/components.ts";
import { apiRoute, defineRoute, newRouter } from "../openapi/define.ts";

const view = z.enum(["llm"]).optional().openapi({ description: "`llm`: the llm_hints view a model reads instead of the breadcrumb" });
const cursor = z.string().max(1_000).optional().openapi({ description: "next_cursor of the previous page" });
const tagList = z.array(z.string().min(1).max(200)).max(100).optional();
const idParams = idParam("The breadcrumb's id");

const listQuery = z.object({
  schema_name: z.string().min(1).max(200).optional().openapi({ description: "Exact schema name" }),
  tag: tagList.openapi({ description: "Has every one of these tags (repeat the parameter)" }),
  any_tag: tagList.openapi({ description: "Has at least one of these tags" }),
  key: z.string().min(1).max(200).optional().openapi({ description: "The breadcrumb's key" }),
  title: z.string().min(1).max(200).optional().openapi({ description: "Case-insensitive substring of the title; % and _ match themselves" }),
  limit: limitParam(500, 50),
  cursor,
  view: view.openapi({ description: "`llm`: each item is its llm view; one failing view fails the page (422)" }),
});
const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });

const routes = {
  create: apiRoute({
    method: "post",
    path: "/",
    operationId: "createBreadcrumb",
    tags: ["breadcrumbs"],
    summary: "Create a breadcrumb",
    description: "A known schema_name validates its context (422 schema_validation_failed). The event `breadcrumb.created` follows on NATS and SSE.",
    scope: "write",
    parameters: [idempotencyKeyHeader],
    request: { body: jsonBody("CreateBreadcrumb", createBreadcrumbBodySchema) },
    responses: {
      201: json(BreadcrumbDoc, 'Created; ETag: "1", Location: its path', { ...etagHeader, ...locationHeader }),
      ...errors(400, 409, 413, 422, 503),
    },
  }),
  list: apiRoute({
    method: "get",
    path: "/",
    operationId: "listBreadcrumbs",
    tags: ["breadcrumbs"],
    summary: "List breadcrumbs, most recently updated first",
    scope: "read",
    parameters: [ifNoneMatchHeader, selectorQuery],
    request: { query: listQuery },
    responses: {
      200: json(page(z.union([BreadcrumbDoc, LlmView])), "A page; with view=llm the items are llm views", etagHeader),
      304: notModified,
      ...errors(400, 422, 503),
    },
  }),
  get: apiRoute({
    method: "get",
    path: "/{id}",
    operationId: "getBreadcrumb",
    tags: ["breadcrumbs"],
    summary: "Read a breadcrumb, or its llm view",
    scope: "read",
    parameters: [ifNoneMatchHeader],
    request: { params: idParams, query: z.object({ view }) },
    responses: {
      200: json(BreadcrumbOrView, 'The breadcrumb with ETag: "<version>", or with view=llm its llm view (a weak ETag of the view)', etagHeader),
      304: notModified,
      ...errors(400, 404, 422, 503),
    },
  }),
  patch: apiRoute({
    method: "patch",
    path: "/{id}",
    operationId: "patchBreadcrumb",
    tags: ["breadcrumbs"],
    summary: "Update a breadcrumb at the version you read",
    description:
      "As `application/json`, the fields given replace the stored ones (context as a whole). As `application/merge-patch+json` " +
      "(RFC 7396), `context` is a merge patch of the stored context: objects merge recursively, a null member removes its key, " +
      "arrays and scalars replace; the event then lists the top-level context keys it changed (`changed`). Either way a known " +
      "schema validates the resulting context (422, nothing written).",
    scope: "write",
    parameters: [ifMatchHeader(true), idempotencyKeyHeader],
    request: {
      params: idParams,
      body: jsonBody("PatchBreadcrumb", patchBreadcrumbBodySchema, "At least one field; `llm_hints: null` removes the top-level hints; `ttl_seconds` sets a new `expires_at` that many seconds from the write (extends a lease in one event)", {
        [MERGE_PATCH_CONTENT_TYPE]: ["MergePatchBreadcrumb", mergePatchBreadcrumbBodySchema],
      }),
    },
    responses: { 200: json(BreadcrumbDoc, "The new version, with its ETag", etagHeader), ...errors(400, 404, 412, 413, 422, 428, 503) },
  }),
  delete: apiRoute({
    method: "delete",
    path: "/{id}",
    operationId: "deleteBreadcrumb",
    tags: ["breadcrumbs"],
    summary: "Delete a breadcrumb (its history stays)",
    scope: "write",
    parameters: [ifMatchHeader(false)],
    request: { params: idParams },
    responses: { 204: { description: "Deleted" }, ...errors(400, 404, 412, 503) },
  }),
  history: apiRoute({
    method: "get",
    path: "/{id}/history",
    operationId: "getBreadcrumbHistory",
    tags: ["breadcrumbs"],
    summary: "Every version of a breadcrumb, oldest first, also after it was deleted",
    scope: "read",
    parameters: [ifNoneMatchHeader],
    request: { params: idParams, query: z.object({ limit: limitParam(500, 100), cursor }) },
    responses: { 200: json(page(HistoryItem), "A page of versions", etagHeader), 304: notModified, ...errors(400, 404, 503) },
  }),
} as const;

function send(c: Context<AppEnv>, result: WriteResult | { response: StoredResponse; replayed: boolean }) {
  const { response, replayed } = result;
  if (response.etag) c.header("ETag", response.etag);
  if (replayed) c.header("Idempotent-Replayed", "true");
  if (response.status === 204) return c.body(null, 204);
  if (response.status === 201) c.header("Location", `/v1/breadcrumbs/${response.id ?? (response.body as { id: string }).id}`);
  const status = response.status as 200 | 201;
  // The write's own answer comes as JSON text from its statement; a replayed one as a value.
  if (response.body instanceof JsonText) return c.body(response.body.text, status, { "Content-Type": "application/json" });
  return c.json(response.body as object, status);
}

export function breadcrumbRoutes(deps: RouteDeps) {
  const app = newRouter();

  /**
   * Fails closed: a view that cannot render is 422, never the raw context. Its work counts in the
   * request's budget; a transform over its own budget is an error entry in the view.
   */
  const llmView = async (b: Breadcrumb, pacer: RowPacer) => {
    const hints = (await deps.schemaDefHints(b.owner, b.schema_name)) as LlmHints | undefined;
    const rendered = renderLlmView(b, hints, pacer.budget);
    await pacer.breathe();
    return rendered;
  };

  defineRoute(app, routes.create, async (c) => {
    const { owner, actor } = c.get("principal");
    const raw = await readJsonBody(c, deps.bodyLimitBytes);
    const body = parseWriteBody(createBreadcrumbBodySchema, raw);
    checkTopLevelHints(body.llm_hints);
    checkBreadcrumbContent(body);
    const idempotency = idempotencyParam(c.req.header("idempotency-key"), { method: "POST", path: c.req.path, body: raw });
    return send(c, await createBreadcrumb(deps.store, { owner, actor, body, idempotency }));
  });

  defineRoute(app, routes.list, async (c, { query: q }) => {
    const { owner } = c.get("principal");
    const pacer = new RowPacer();
    const selector = selectorParam(c.req.query("selector"));
    return ownerRead(deps, owner, async () => {
      const found = await listBreadcrumbs(deps.database.db, owner, {
        schema_name: q.schema_name,
        key: q.key,
        title: q.title,
        tags: q.tag ?? [],
        any_tags: q.any_tag ?? [],
        selector,
        limit: q.limit,
        cursor: q.cursor,
        pacer,
        maxBytes: deps.pageMaxBytes,
      });
      if (q.view !== "llm") return conditionalJson(c, found);
      // One failing view fails the whole page (422): a partial page would hide that items are missing.
      const items = [];
      for (const b of found.items) items.push(await llmView(b, pacer));
      return conditionalJson(c, { items, next_cursor: found.next_cursor });
    });
  });

  defineRoute(app, routes.get, async (c, { params, query }) => {
    const { owner } = c.get("principal");
    const b = await getBreadcrumb(deps.database.db, owner, breadcrumbIdParam(params.id));
    // The view also changes when a schema.def's hints do, so it is tagged by its content, not the version.
    if (query.view === "llm") return conditionalJson(c, await llmView(b, new RowPacer()));
    return conditionalJson(c, b, etagOf(b.version));
  });

  defineRoute(app, routes.patch, async (c, { params }) => {
    const { owner, actor } = c.get("principal");
    const id = breadcrumbIdParam(params.id);
    const expectedVersion = ifMatchVersion(c.req.header("if-match"), true);
    const raw = await readJsonBody(c, deps.bodyLimitBytes);
    if (mediaType(c.req.header("content-type")) === MERGE_PATCH_CONTENT_TYPE) {
      const patch = parseWriteBody(mergePatchBreadcrumbBodySchema, raw);
      const parts = { method: "PATCH", path: c.req.path, ifMatch: expectedVersion, body: raw, mediaType: MERGE_PATCH_CONTENT_TYPE };
      const idempotency = idempotencyParam(c.req.header("idempotency-key"), parts);
      const validate = breadcrumbContentCheck;
      return send(c, await mergePatchBreadcrumb(deps.store, { owner, actor, id, expectedVersion, body: patch, validate, idempotency }));
    }
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
      validate: body.context !== undefined ? breadcrumbContentCheck : undefined,
      idempotency,
    });
    return send(c, result);
  });

  defineRoute(app, routes.delete, async (c, { params }) => {
    const { owner } = c.get("principal");
    const id = breadcrumbIdParam(params.id);
    const expectedVersion = ifMatchVersion(c.req.header("if-match"), false);
    return send(c, await deleteBreadcrumb(deps.store, { owner, id, expectedVersion }));
  });

  defineRoute(app, routes.history, async (c, { params, query }) => {
    const { owner } = c.get("principal");
    const id = breadcrumbIdParam(params.id);
    return ownerRead(deps, owner, async () =>
      conditionalJson(c, await listHistory(deps.database.db, owner, id, { ...query, maxBytes: deps.pageMaxBytes })),
    );
  });

  return app;
}

/** `application/merge-patch+json; charset=utf-8` -> `application/merge-patch+json`. */
const mediaType = (header: string | undefined) => header?.split(";")[0]?.trim().toLowerCase();
