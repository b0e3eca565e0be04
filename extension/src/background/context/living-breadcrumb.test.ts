import { describe, expect, it } from "vitest";
import { ApiResponseError } from "@crumbs/agent-sdk/http";
import { applyMergePatch } from "@crumbs/schemas/merge-patch";
import type { Breadcrumb, CrumbsApi, PatchBody } from "../../shared/api-client.ts";
import type { StoredValue } from "../../shared/state/store.ts";
import { MAX_CONFLICT_RETRIES, writeLiving, type LivingState } from "./living-breadcrumb.ts";

// An in-memory API with the contract's key, If-Match and 412 rules, to test the client logic.
function fakeApi() {
  const rows = new Map<string, Breadcrumb>();
  let n = 0;
  const calls: string[] = [];
  let conflicts = 0;
  const api: CrumbsApi = {
    url: "http://fake",
    async get(id) {
      calls.push(`get ${id}`);
      const b = rows.get(id);
      if (!b) throw new ApiResponseError("not_found", "gone", 404);
      return b;
    },
    async list(q) {
      calls.push(`list ${q.key}`);
      return [...rows.values()].filter((b) => b.key === q.key);
    },
    async create(body) {
      calls.push("create");
      const taken = [...rows.values()].find((b) => b.key === body.key);
      if (taken)
        throw new ApiResponseError("key_conflict", "taken", 409, { id: taken.id, version: taken.version });
      const now = new Date().toISOString();
      const b = {
        id: `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
        owner: "default",
        version: 1,
        created_at: now,
        updated_at: now,
        created_by: "t",
        updated_by: "t",
        ...body,
        tags: body.tags ?? [],
      } as Breadcrumb;
      rows.set(b.id, b);
      return structuredClone(b);
    },
    patch: (id, version, body) => write("patch", id, version, body, (b) => ({ ...b, ...body })),
    mergePatch: (id, version, body) =>
      write("merge", id, version, body, (b) => ({
        ...b,
        ...body,
        context: body.context
          ? (applyMergePatch(b.context, body.context) as Breadcrumb["context"])
          : b.context,
      })),
  };
  const bodies: { kind: string; body: PatchBody }[] = [];
  async function write(
    kind: string,
    id: string,
    version: number,
    body: PatchBody,
    apply: (b: Breadcrumb) => Breadcrumb,
  ) {
    calls.push(`${kind} ${version}`);
    bodies.push({ kind, body });
    const b = rows.get(id);
    if (!b) throw new ApiResponseError("not_found", "gone", 404);
    if (conflicts > 0) {
      conflicts--;
      b.version++; // someone else wrote meanwhile
    }
    if (b.version !== version)
      throw new ApiResponseError("version_mismatch", "stale", 412, { current_version: b.version });
    const next = { ...apply(b), version: b.version + 1 } as Breadcrumb;
    rows.set(id, next);
    return structuredClone(next);
  }
  return { api, rows, calls, bodies, conflict: (k: number) => void (conflicts = k) };
}

function memory(): StoredValue<LivingState | null> & { value: LivingState | null } {
  const box = {
    key: "t",
    value: null as LivingState | null,
    get: async () => box.value,
    set: async (v: LivingState | null) => void (box.value = v),
    update: async (fn: (c: LivingState | null) => LivingState | null | Promise<LivingState | null>) =>
      (box.value = await fn(box.value)),
  };
  return box;
}

/** A fake API and the deps of one worker writing through it; `over` replaces any of them. */
function setup(over: { sleep?: (ms: number) => Promise<void>; lastWritten?: { current?: Breadcrumb } } = {}) {
  const f = fakeApi();
  const deps = { api: f.api, extensionId: "ext", connection: "c1", state: memory(), sleep: async () => {}, ...over };
  return { f, deps };
}

const page = (url: string, fp = url) => ({
  title: url,
  tags: ["browser:context"],
  context: { url, domain: "x", title: url },
  fingerprint: fp,
});

describe("living breadcrumb", () => {
  it("creates once by key, then patches the same id with climbing versions", async () => {
    const { f, deps } = setup();
    expect((await writeLiving(deps, page("a"))).outcome).toBe("created");
    const r2 = await writeLiving(deps, page("b"));
    const r3 = await writeLiving(deps, page("c"));
    expect([r2.outcome, r3.outcome]).toEqual(["updated", "updated"]);
    expect(r3.state.id).toBe(r2.state.id);
    expect(r3.state.version).toBe(3);
    expect(f.rows.size).toBe(1);
  });

  it("skips a write whose fingerprint did not change", async () => {
    const { f, deps } = setup();
    await writeLiving(deps, page("a"));
    expect((await writeLiving(deps, page("a"))).outcome).toBe("unchanged");
    expect(f.calls.filter((c) => c.startsWith("patch") || c.startsWith("merge"))).toEqual([]);
  });

  it("a lost state (new profile, other worker) finds the breadcrumb by key instead of creating a second", async () => {
    const { f, deps: first } = setup();
    const { state: s1 } = await writeLiving(first, page("a"));
    const second = { ...first, state: memory() };
    const { state: s2, outcome } = await writeLiving(second, page("b"));
    expect(outcome).toBe("updated");
    expect(s2.id).toBe(s1.id);
    expect(f.rows.size).toBe(1);
  });

  it("retries a 412 with the current version, a bounded number of times", async () => {
    const delays: number[] = [];
    const { f, deps } = setup({ sleep: async (ms: number) => void delays.push(ms) });
    await writeLiving(deps, page("a"));
    f.conflict(2);
    const r = await writeLiving(deps, page("b"));
    expect(r.outcome).toBe("updated");
    expect(delays).toHaveLength(2);
    f.conflict(100);
    await expect(writeLiving(deps, page("c"))).rejects.toMatchObject({ status: 412 });
    expect(delays).toHaveLength(2 + MAX_CONFLICT_RETRIES);
  });

  it("a deleted breadcrumb is created again", async () => {
    const { f, deps } = setup();
    await writeLiving(deps, page("a"));
    f.rows.clear();
    expect((await writeLiving(deps, page("b"))).outcome).toBe("created");
    expect(f.rows.size).toBe(1);
  });

  const big = (n: number, text: string, scrollY: number) => ({
    title: "Shop",
    tags: ["browser:context"],
    context: {
      url: "u",
      domain: "x",
      title: "Shop",
      viewport: { width: 800, height: 600, scrollY },
      content: { mainText: text, headings: ["A", "B"] },
      session: { tabId: 1, capturedAt: `t${n}` },
      snapshot: { text: "x".repeat(2_000) },
    },
    fingerprint: `fp${n}`,
  });

  it("after the first full write, sends only what changed as a merge patch; the stored breadcrumb equals the update", async () => {
    const { f, deps } = setup({ lastWritten: {} });
    await writeLiving(deps, big(1, "one", 0));
    for (let i = 2; i <= 5; i++) {
      const update = big(i, `text ${i}`, i * 100);
      await writeLiving(deps, update);
      expect([...f.rows.values()][0]!.context).toEqual(update.context);
    }
    expect(f.bodies.map((b) => b.kind)).toEqual(["merge", "merge", "merge", "merge"]);
    expect(f.bodies[0]!.body).toEqual({
      context: { viewport: { scrollY: 200 }, content: { mainText: "text 2" }, session: { capturedAt: "t2" } },
    });
  });

  it("a 412 on a merge patch retries in full at the current version; a worker without a base writes in full", async () => {
    const { f, deps } = setup({ lastWritten: {} });
    await writeLiving(deps, big(1, "one", 0));
    f.conflict(1);
    await writeLiving(deps, big(2, "two", 10));
    expect(f.calls.slice(-2)).toEqual(["merge 1", "patch 2"]);
    expect([...f.rows.values()][0]!.context).toEqual(big(2, "two", 10).context);
    await writeLiving(deps, big(3, "three", 10));
    expect(f.calls.at(-1)).toBe("merge 3");
    const restarted = { ...deps, lastWritten: {} };
    await writeLiving(restarted, big(4, "four", 10));
    expect(f.calls.at(-1)).toBe("patch 4");
  });

  it("a context that sets a member to null (no merge patch can) is written in full", async () => {
    const { f, deps } = setup({ lastWritten: {} });
    await writeLiving(deps, big(1, "one", 0));
    const update = big(2, "one", 0);
    (update.context.content as Record<string, unknown>).mainText = null;
    await writeLiving(deps, update);
    expect(f.calls.at(-1)).toBe("patch 1");
    expect([...f.rows.values()][0]!.context).toEqual(update.context);
  });
});
