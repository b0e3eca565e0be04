import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { AckPolicy } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentConsumerPrefix, MERGE_PATCH_CONTENT_TYPE, STREAM_NAME, subjectFor } from "@crumbs/schemas";
import { waitFor } from "@crumbs/testkit";
import { startLockedStack, type TestStack } from "./stack.ts";

const apiDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

type Header = { required?: boolean };
type ResponseDoc = { content?: Record<string, unknown>; headers?: Record<string, Header> };
type Operation = { operationId: string; responses: Record<string, ResponseDoc> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

const escape = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * Checks real answers against the document: the status is one the operation lists, its required
 * headers are there, and a JSON body validates against the response schema (JSON Schema 2020-12,
 * as OpenAPI 3.1 writes it). Remembers which operation answered which status.
 */
class Conformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly seen = new Map<string, Set<string>>();

  constructor(readonly doc: Doc) {
    addFormats.default(this.ajv);
    this.ajv.addSchema(doc as object, "doc");
  }

  operations(): string[] {
    return Object.entries(this.doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
  }

  async check(res: Response, method: string, path: string, body?: unknown): Promise<void> {
    const op = this.doc.paths[path]?.[method.toLowerCase()];
    const where = `${method} ${path} -> ${res.status}`;
    expect(op, `${method} ${path} is not in the document`).toBeDefined();
    const spec = op!.responses[String(res.status)];
    expect(spec, `${where}: status not documented`).toBeDefined();
    for (const [name, h] of Object.entries(spec!.headers ?? {})) {
      if (h.required) expect(res.headers.get(name), `${where}: header ${name}`).not.toBeNull();
    }
    const key = `${method} ${path}`;
    if (!this.seen.has(key)) this.seen.set(key, new Set());
    this.seen.get(key)!.add(String(res.status));
    if (!spec!.content) {
      expect(await res.text(), `${where}: no body documented`).toBe("");
      return;
    }
    const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
    expect(Object.keys(spec!.content), `${where}: content type`).toContain(type);
    if (type !== "application/json") return;
    const json = body ?? (await res.json());
    const pointer = `doc#/paths/${escape(path)}/${method.toLowerCase()}/responses/${res.status}/content/${escape(type)}/schema`;
    const validate = this.ajv.getSchema(pointer)!;
    if (!validate(json)) throw new Error(`${where}: body does not match the document: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(json).slice(0, 500)}`);
  }

  /** A JSON body against a component schema (SSE data). */
  component(name: string, value: unknown): void {
    const validate = this.ajv.getSchema(`doc#/components/schemas/${name}`)!;
    if (!validate(value)) throw new Error(`${name}: ${this.ajv.errorsText(validate.errors)}`);
  }
}

describe("the OpenAPI document", () => {
  let s: TestStack;
  let doc: Doc;
  let dir: string;

  beforeAll(async () => {
    // Locked, so that POST /v1/nats/credentials answers with credentials of the owner's account.
    // A 32 KiB max_payload, so a breadcrumb with large tags parks (its reference event does not fit).
    s = await startLockedStack({ CRUMBS_RATE_LIMIT: "1000:1000" }, { maxPayload: 32 * 1024 });
    const res = await s.call("/openapi.json", { token: null });
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
    dir = await mkdtemp(join(tmpdir(), "crumbs-openapi-"));
  });
  afterAll(async () => {
    await s?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("passes Redocly lint with no errors and no warnings", async () => {
    const file = join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(doc));
    const { stdout } = await promisify(execFile)(
      join(repoRoot, "node_modules/.bin/redocly"),
      ["lint", file, "--config", join(apiDir, "redocly.yaml"), "--format", "json"],
      // No telemetry or update check: the test talks to nothing but this machine.
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }, timeout: 120_000 },
    ).catch((e: { stdout?: string; stderr?: string }) => {
      throw new Error(`redocly lint failed: ${e.stdout ?? ""} ${e.stderr ?? ""}`);
    });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("every operation has an operationId, a tag, a security decision and servers to call", () => {
    expect((doc as unknown as { servers: unknown[] }).servers.length).toBeGreaterThan(0);
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item) as (Operation & { tags?: string[]; security?: unknown[] })[]) {
        expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
        expect(op.tags?.length).toBe(1);
        expect(op.security).toBeDefined();
      }
    }
  });

  it("real answers of every operation validate against it", async () => {
    const c = new Conformance(doc);
    const call = async (method: string, path: string, url: string, init: Parameters<TestStack["call"]>[1] = {}) => {
      const res = await s.call(url, { ...init, method });
      const body = res.headers.get("content-type")?.startsWith("application/json") && res.status !== 304 ? await res.clone().json() : undefined;
      await c.check(res, method, path, body);
      return { res, body: body as Record<string, unknown> & { id: string; items: unknown[] } };
    };
    const B = "/v1/breadcrumbs";
    const ONE = `${B}/{id}`;

    // Lists answered only empty validate nothing: first a consumer of an agent, as the runner
    // makes it, and a parked outbox row of another owner (so this owner's events keep flowing).
    const consumerName = `${agentConsumerPrefix("default", "page-assistant")}0123abcd`;
    await (await s.nats.nc.jetstreamManager()).consumers.add(STREAM_NAME, {
      durable_name: consumerName,
      filter_subject: subjectFor("default", "created", "chat.message.v1"),
      ack_policy: AckPolicy.Explicit,
    });
    const parkedKey = await s.call("/v1/keys", { method: "POST", json: { owner: "doc-parked", scopes: ["write"], name: "parked" } });
    expect(parkedKey.status).toBe(201);
    // 100 tags of 200 three-byte characters: the reference event alone is ~60 KB, over 32 KiB.
    const tags = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(200, "€"));
    const poison = await s.call(B, { method: "POST", token: ((await parkedKey.json()) as { token: string }).token, json: { schema_name: "test.doc.v1", title: "poison", tags, context: {} } });
    expect(poison.status).toBe(201);
    await waitFor(async () => (await s.count("outbox_parked")) === 1, { message: "the poison row parked" });
    const hints = { transform: { t: { type: "template", template: "{{title}} has {{context.n}}" } } };

    // Breadcrumbs: create, conflicts and refusals.
    const created = await call("POST", B, B, { json: { schema_name: "test.doc.v1", title: "doc", key: "doc-1", tags: ["a"], context: { n: 1 }, llm_hints: hints } });
    expect(created.res.status).toBe(201);
    const id = created.body.id;
    const at = (p: string) => p.replace("{id}", id);
    expect((await call("POST", B, B, { json: { schema_name: "test.doc.v1", title: "doc", key: "doc-1", context: {} } })).res.status).toBe(409);
    expect((await call("POST", B, B, { body: "{", headers: { "content-type": "application/json" } })).res.status).toBe(400);
    expect((await call("POST", B, B, { json: { schema_name: "chat.message.v1", title: "x", context: { role: "robot" } } })).res.status).toBe(422);
    expect((await call("POST", B, B, { json: { schema_name: "test.doc.v1", title: "x", context: { blob: "x".repeat(1_100_000) } } })).res.status).toBe(413);
    expect((await call("POST", B, B, { token: "nope", json: {} })).res.status).toBe(401);

    // Reads, the llm view, conditional reads.
    const read = await call("GET", ONE, at(ONE));
    // The validator does refuse what the document forbids.
    expect(() => c.component("Breadcrumb", { ...read.body, version: "2" })).toThrow(/version/);
    expect(() => c.component("Error", { error: "x", message: "y", details: [] })).toThrow(/details/);
    expect((await call("GET", ONE, at(ONE), { headers: { "if-none-match": read.res.headers.get("etag")! } })).res.status).toBe(304);
    expect((await call("GET", ONE, `${at(ONE)}?view=llm`)).body).toMatchObject({ t: "doc has 1" });
    expect((await call("GET", ONE, at(ONE).replace(id, "00000000-0000-4000-8000-000000000000"))).res.status).toBe(404);
    expect((await call("GET", ONE, `${at(ONE)}?view=raw`)).res.status).toBe(400);
    const list = await call("GET", B, `${B}?tag=a&limit=10`);
    expect(list.body.items.length).toBe(1);
    await call("GET", B, `${B}?tag=a&view=llm`);
    expect((await call("GET", B, `${B}?tag=a&limit=10`, { headers: { "if-none-match": list.res.headers.get("etag")! } })).res.status).toBe(304);
    expect((await call("GET", B, `${B}?limit=0`)).res.status).toBe(400);
    expect((await call("GET", B, `${B}?selector=${encodeURIComponent('{"context_match":[{"path":"$.n","op":"nope"}]}')}`)).res.status).toBe(422);

    // Updates: If-Match required, stale, fine; then history and delete.
    expect((await call("PATCH", ONE, at(ONE), { json: { title: "doc 2" } })).res.status).toBe(428);
    expect((await call("PATCH", ONE, at(ONE), { json: { title: "doc 2" }, headers: { "if-match": '"1"' } })).res.status).toBe(200);
    expect((await call("PATCH", ONE, at(ONE), { json: { title: "doc 3" }, headers: { "if-match": '"1"' } })).res.status).toBe(412);
    expect((await call("PATCH", ONE, at(ONE), { json: {}, headers: { "if-match": '"2"' } })).res.status).toBe(400);
    // A merge patch (RFC 7396): its answer, its refusal, and (below) its event with `changed`.
    const merge = (ifMatch: string, patch: unknown) => ({ body: JSON.stringify(patch), headers: { "content-type": MERGE_PATCH_CONTENT_TYPE, "if-match": ifMatch } });
    expect((await call("PATCH", ONE, at(ONE), merge('"2"', { context: { m: { x: 1 } } }))).res.status).toBe(200);
    expect((await call("PATCH", ONE, at(ONE), merge('"3"', { context: [1] }))).res.status).toBe(400);
    await call("GET", `${ONE}/history`, `${at(ONE)}/history`);
    expect((await call("GET", `${ONE}/history`, `${at(ONE)}/history?limit=x`)).res.status).toBe(400);
    expect((await call("DELETE", ONE, at(ONE), { headers: { "if-match": '"1"' } })).res.status).toBe(412);
    expect((await call("DELETE", ONE, at(ONE))).res.status).toBe(204);
    await call("GET", `${ONE}/history`, `${at(ONE)}/history`);

    // Events, replay and live.
    const events = await call("GET", "/v1/events", "/v1/events?after=0&limit=5");
    expect(events.body.items.length).toBeGreaterThan(0);
    expect((await call("GET", "/v1/events", "/v1/events?since=yesterday")).res.status).toBe(400);
    const ac = new AbortController();
    const stream = await s.call("/v1/events/stream?after=0", { signal: ac.signal });
    await c.check(stream, "GET", "/v1/events/stream");
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!/\ndata: .*\n/.test(text)) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`the event stream ended before its first event: ${text}`);
      text += decoder.decode(chunk.value, { stream: true });
    }
    ac.abort();
    c.component("BreadcrumbEvent", JSON.parse(/\ndata: (.*)\n/.exec(text)![1]!));
    expect((await call("GET", "/v1/events/stream", "/v1/events/stream?after=-1")).res.status).toBe(400);

    // Stats and agents.
    await call("GET", "/v1/stats/schemas", "/v1/stats/schemas");
    expect((await call("GET", "/v1/agents/{id}/consumers", "/v1/agents/page-assistant/consumers")).body).toMatchObject({
      items: [{ name: consumerName, filter_subject: "crumbs.default.created.chat.message.v1" }],
    });
    expect((await call("GET", "/v1/agents/{id}/consumers", "/v1/agents/no-such-agent/consumers")).body).toEqual({ items: [] });
    expect((await call("GET", "/v1/agents/{id}/consumers", "/v1/agents/no%20spaces/consumers")).res.status).toBe(400);

    // Keys: create (Location), read, list, refusals, revoke.
    const key = await call("POST", "/v1/keys", "/v1/keys", { json: { owner: "doc-owner", scopes: ["read"], name: "doc" } });
    expect(key.res.headers.get("location")).toBe(`/v1/keys/${key.body.id}`);
    await call("GET", "/v1/keys/{id}", key.res.headers.get("location")!);
    await call("GET", "/v1/keys", "/v1/keys?owner=doc-owner");
    expect((await call("POST", "/v1/keys", "/v1/keys", { json: { scopes: [] } })).res.status).toBe(400);
    expect((await call("GET", "/v1/keys", "/v1/keys", { token: key.body.token as string })).res.status).toBe(403);
    expect((await call("GET", "/v1/keys/{id}", "/v1/keys/00000000-0000-4000-8000-000000000000")).res.status).toBe(404);
    expect((await call("DELETE", "/v1/keys/{id}", `/v1/keys/${key.body.id}`)).res.status).toBe(204);
    expect((await call("DELETE", "/v1/keys/{id}", "/v1/keys/nope")).res.status).toBe(404);

    // NATS credentials, the outbox.
    expect((await call("POST", "/v1/nats/credentials", "/v1/nats/credentials", { json: { kind: "extension", extension_id: "doc" } })).body).toMatchObject({ kind: "extension" });
    await call("POST", "/v1/nats/credentials", "/v1/nats/credentials", { method: "POST" });
    expect((await call("POST", "/v1/nats/credentials", "/v1/nats/credentials", { json: { ttl_seconds: 1 } })).res.status).toBe(400);
    const parked = await call("GET", "/v1/outbox/parked", "/v1/outbox/parked");
    expect(parked.body.items).toMatchObject([{ owner: "doc-parked" }]);
    const parkedSeq = (parked.body.items[0] as { seq: number }).seq;
    expect((await call("GET", "/v1/outbox/parked", "/v1/outbox/parked?limit=0")).res.status).toBe(400);
    expect((await call("POST", "/v1/outbox/retry", "/v1/outbox/retry", { json: { seq: 999_999 } })).res.status).toBe(404);
    expect((await call("POST", "/v1/outbox/retry", "/v1/outbox/retry", { json: { all: true } })).body).toEqual({ retried: [parkedSeq] });
    expect((await call("POST", "/v1/outbox/retry", "/v1/outbox/retry", { json: { all: false } })).res.status).toBe(400);

    // Operations.
    await call("GET", "/healthz", "/healthz", { token: null });
    await call("GET", "/readyz", "/readyz", { token: null });
    await call("GET", "/metrics", "/metrics", { token: null });
    await call("GET", "/openapi.json", "/openapi.json", { token: null });

    // Every operation answered at least once, with its success status among them.
    expect([...c.seen.keys()].sort()).toEqual(c.operations().sort());
    for (const [op, statuses] of c.seen) expect([...statuses].some((st) => st.startsWith("2")), op).toBe(true);
  });
});
