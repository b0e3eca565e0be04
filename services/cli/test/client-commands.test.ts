import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiConfig, startApi } from "@crumbs/api";
import { createTestDatabase, freePort, NatsServer, waitFor, type TestDatabase } from "@crumbs/testkit";
import { cleanEnv, LiveCli, runCli } from "./run-cli.ts";

const token = "cli-test-token-0123456789";
let nats: NatsServer;
let db: TestDatabase;
let api: { url: string; close(): Promise<void> };
let nc: NatsConnection;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "crumbs-cli-"));
  [nats, db] = await Promise.all([NatsServer.start(), createTestDatabase("crumbs_cli")]);
  api = await startApi({
    config: loadApiConfig({
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      PORT: "0",
      HOST: "127.0.0.1",
      CRUMBS_TOKEN: token,
    }),
  });
  nc = await connect({ servers: nats.url });
  env = cleanEnv({ CRUMBS_URL: api.url, CRUMBS_TOKEN: token, NATS_URL: nats.url });
});

afterAll(async () => {
  await nc?.close();
  await api?.close();
  await db?.drop();
  await nats?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const crumbs = (...args: string[]) => runCli(args, { env, cwd: dir });
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

async function createNote(title: string, context: Record<string, unknown> = { text: title }) {
  const res = await runCli(["put", "-"], { env, cwd: dir, input: JSON.stringify({ schema_name: "note.v1", title, context }) });
  expect(res.stderr).toBe("");
  expect(res.code).toBe(0);
  return json(res.stdout) as { id: string; version: number };
}

describe("crumbs client commands against a real API", () => {
  let id: string;

  it("put creates from a file, updates with If-Match from its version, and refuses a stale version", async () => {
    const file = join(dir, "note.json");
    await writeFile(
      file,
      JSON.stringify({
        schema_name: "note.v1",
        title: "first",
        tags: ["cli"],
        context: { text: "hello", secret: "s3cret" },
        llm_hints: { mode: "merge", transform: { line: { type: "template", template: "{{title}}: {{context.text}}" } }, exclude: ["secret"] },
      }),
    );
    const created = await crumbs("put", file);
    expect(created.code).toBe(0);
    const crumb = json(created.stdout);
    expect(crumb).toMatchObject({ schema_name: "note.v1", title: "first", version: 1 });
    id = crumb.id as string;

    // The `get > file; edit; put file` round trip.
    const got = await crumbs("get", id);
    expect(got.code).toBe(0);
    await writeFile(file, JSON.stringify({ ...json(got.stdout), title: "second" }));
    const updated = await crumbs("put", file);
    expect(updated.code).toBe(0);
    expect(json(updated.stdout)).toMatchObject({ id, title: "second", version: 2 });

    // The file still says version 1: someone else's change must not be overwritten.
    const stale = await crumbs("put", file);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^version_mismatch: /);
  });

  it("get --view llm prints the llm view, without excluded fields", async () => {
    const res = await crumbs("get", id, "--view", "llm");
    expect(res.code).toBe(0);
    const view = json(res.stdout);
    expect(view.line ?? JSON.stringify(view)).toContain("second: hello");
    expect(res.stdout).not.toContain("s3cret");
  });

  it("history lists every version oldest first", async () => {
    const res = await crumbs("history", id);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d+ \S+ v1 .* first$/);
    expect(lines[1]).toMatch(/^\d+ \S+ v2 .* second$/);
  });

  it("an API error prints `code: message` and exits 1", async () => {
    const res = await crumbs("get", "00000000-0000-4000-8000-000000000000");
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^not_found: /);
  });

  it("replay --since 1h prints every event in seq order", async () => {
    const other = await createNote("other");
    const res = await crumbs("replay", "--since", "1h");
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n");
    const seqs = lines.map((l) => Number(l.split(" ")[0]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const mine = lines.filter((l) => l.includes(id));
    const fields = mine.map((l) => {
      const [, type, schema, , version] = l.split(" ");
      return [type, schema, version];
    });
    expect(fields).toEqual([
      ["created", "note.v1", "v1"],
      ["updated", "note.v1", "v2"],
    ]);
    expect(lines.some((l) => l.includes(other.id))).toBe(true);
    expect(res.stderr).toMatch(/replayed \d+ events in [\d.]+ s \(\d+ events\/s\)/);

    const narrowed = await crumbs("replay", "--after", lines[0]!.split(" ")[0]!, "--selector", '{"all_tags":["cli"]}');
    expect(narrowed.code).toBe(0);
    expect(narrowed.stdout.trim().split("\n")).toEqual([lines[1]]);
  });

  it("replay --publish delivers each event to a NATS subscriber on <prefix>.<owner>.<type>.<schema>", async () => {
    const sub = nc.subscribe("replayed.>");
    const received: { subject: string; seq: number; msgId: string | undefined }[] = [];
    void (async () => {
      for await (const m of sub) {
        received.push({ subject: m.subject, seq: (m.json() as { seq: number }).seq, msgId: m.headers?.get("Nats-Msg-Id") });
      }
    })();
    await nc.flush();
    const res = await crumbs("replay", "--since", "1h", "--selector", '{"schema_name":"note.v1"}', "--publish", "replayed");
    expect(res.code).toBe(0);
    const printed = res.stdout.trim().split("\n").length;
    await waitFor(() => received.length === printed, { message: `${printed} messages` });
    expect(received[0]).toEqual({ subject: "replayed.default.created.note.v1", seq: expect.any(Number), msgId: `${id}:1:created` });
    expect(received.map((r) => r.seq)).toEqual([...received.map((r) => r.seq)].sort((a, b) => a - b));
    expect(res.stderr).toMatch(new RegExp(`published to replayed\\.>: 0 into JetStream, ${printed} core`));
    sub.unsubscribe();
  });

  it("replay --publish stores into a JetStream stream that covers the prefix, once even when run twice", async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: "REPLAYS", subjects: ["replays.>"] });
    const first = await crumbs("replay", "--since", "1h", "--publish", "replays");
    expect(first.code).toBe(0);
    const count = first.stdout.trim().split("\n").length;
    expect(first.stderr).toContain(`${count} into JetStream`);
    const again = await crumbs("replay", "--since", "1h", "--publish", "replays");
    expect(again.stderr).toContain(`(${count} already there)`);
    expect((await jsm.streams.info("REPLAYS")).state.messages).toBe(count);
  });

  it("agents apply creates then updates by agent_id, and agents list shows it", async () => {
    const file = join(dir, "agent.json");
    const def = {
      agent_id: "cli-echo",
      model: "test-model",
      system_prompt: "echo",
      subscriptions: { selectors: [{ schema_name: "chat.message.v1" }] },
      capabilities: {},
    };
    await writeFile(file, JSON.stringify(def));
    const created = await crumbs("agents", "apply", file);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain("created agent cli-echo");
    await writeFile(file, JSON.stringify({ ...def, system_prompt: "echo louder" }));
    const updated = await crumbs("agents", "apply", file);
    expect(updated.code).toBe(0);
    expect(json(updated.stdout)).toMatchObject({ version: 2, context: { system_prompt: "echo louder" } });
    const list = await crumbs("agents", "list");
    expect(list.stdout.trim()).toMatch(/^cli-echo \S+ v2 test-model /);
  });

  it("agents set-model changes only the model, in place with If-Match, and names an unknown agent", async () => {
    const file = join(dir, "model.json");
    const def = { agent_id: "cli-model", model: "openrouter/some/model", system_prompt: "be brief", subscriptions: { selectors: [{ schema_name: "chat.message.v1" }] } };
    await writeFile(file, JSON.stringify({ schema_name: "agent.def.v1", title: "model switch", tags: ["mine"], context: def }));
    expect((await crumbs("agents", "apply", file)).code).toBe(0);

    const set = await crumbs("agents", "set-model", "cli-model", "llama3.1:8b");
    expect(set.code).toBe(0);
    expect(set.stderr).toBe("updated agent cli-model (v2): model openrouter/some/model -> llama3.1:8b\n");
    const saved = json(set.stdout) as { id: string; title: string; tags: string[]; context: Record<string, unknown> };
    expect(saved).toMatchObject({ version: 2, title: "model switch", tags: ["mine"] });
    expect(saved.context).toEqual({ ...def, model: "llama3.1:8b" });
    expect((await crumbs("agents", "list")).stdout).toMatch(/^cli-model \S+ v2 llama3\.1:8b model switch$/m);
    // The same model again writes nothing.
    const again = await crumbs("agents", "set-model", "cli-model", "llama3.1:8b");
    expect(again.stderr).toBe("unchanged: agent cli-model already uses llama3.1:8b (v2)\n");
    expect((await crumbs("history", saved.id)).stdout.trim().split("\n")).toHaveLength(2);

    const unknown = await crumbs("agents", "set-model", "no-such-agent", "m");
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toBe('not_found: no agent "no-such-agent": `crumbs agents list` shows the agents there are\n');
    const missing = await crumbs("agents", "set-model", "cli-model");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^crumbs agents: missing argument\n/);
  });

  it("list prints a table, filters by schema and tags, pages with --cursor or --all, and says when nothing matches", async () => {
    const made = [await createNote("list one"), await createNote("list two"), await createNote("list three")];
    for (const n of made) {
      const tagged = await crumbs("get", n.id);
      await writeFile(join(dir, "tagged.json"), JSON.stringify({ ...json(tagged.stdout), tags: ["listme"] }));
      expect((await crumbs("put", join(dir, "tagged.json"))).code).toBe(0);
    }
    const all = await crumbs("list", "--schema", "note.v1", "--tag", "listme");
    expect(all.code).toBe(0);
    const [header, ...rows] = all.stdout.trim().split("\n");
    expect(header).toMatch(/^ID\s+SCHEMA\s+VERSION\s+UPDATED\s+TITLE$/);
    // Most recently updated first.
    expect(rows.map((r) => r.split(/\s+/)[0])).toEqual(made.map((n) => n.id).reverse());
    expect(rows[0]).toMatch(/ note\.v1 +v2 +\S+ +list three$/);

    const first = await crumbs("list", "--tag", "listme", "--limit", "2");
    expect(first.stdout.trim().split("\n")).toHaveLength(3);
    const cursor = /--cursor (\S+)/.exec(first.stderr)?.[1];
    expect(cursor, first.stderr).toBeTruthy();
    const second = await crumbs("list", "--tag", "listme", "--limit", "2", "--cursor", cursor!);
    expect(second.stdout.trim().split("\n").slice(1)).toEqual([rows[2]]);
    expect(second.stderr).toBe("");
    const paged = await crumbs("list", "--tag", "listme", "--limit", "1", "--all", "--json");
    expect((JSON.parse(paged.stdout) as { items: { id: string }[]; next_cursor: null }).items.map((i) => i.id)).toEqual(
      made.map((n) => n.id).reverse(),
    );

    const none = await crumbs("list", "--schema", "nothing.v1");
    expect(none).toEqual({ code: 0, stdout: "", stderr: "no breadcrumbs match\n" });
  });

  it("delete removes a breadcrumb; with a stale --if-match it deletes nothing and prints the current version", async () => {
    const note = await createNote("to delete");
    await writeFile(join(dir, "del.json"), JSON.stringify({ ...note, title: "to delete, v2" }));
    expect((await crumbs("put", join(dir, "del.json"))).code).toBe(0);
    const stale = await crumbs("delete", note.id, "--if-match", "1");
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe("version_mismatch: the breadcrumb is at version 2\n  current_version: 2\n");
    expect((await crumbs("get", note.id)).code).toBe(0);
    const done = await crumbs("delete", note.id, "--if-match", "2");
    expect(done).toMatchObject({ code: 0, stdout: `deleted ${note.id}\n` });
    expect((await crumbs("get", note.id)).stderr).toMatch(/^not_found: /);
  });

  it("agents apply of the same definition, keys in another order, writes nothing and says unchanged", async () => {
    const file = join(dir, "same.json");
    const def = { agent_id: "cli-same", model: "m", system_prompt: "s", subscriptions: { selectors: [{ schema_name: "chat.message.v1" }] } };
    await writeFile(file, JSON.stringify({ schema_name: "agent.def.v1", title: "same", tags: ["a", "b"], context: def }));
    expect((await crumbs("agents", "apply", file)).stderr).toBe("created agent cli-same (v1)\n");
    const reordered = { subscriptions: def.subscriptions, system_prompt: "s", model: "m", agent_id: "cli-same" };
    await writeFile(file, JSON.stringify({ context: reordered, tags: ["b", "a"], title: "same", schema_name: "agent.def.v1" }));
    const again = await crumbs("agents", "apply", file);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("unchanged agent cli-same (v1)\n");
    expect(json(again.stdout)).toMatchObject({ version: 1 });
    const history = await crumbs("history", (json(again.stdout) as { id: string }).id);
    expect(history.stdout.trim().split("\n")).toHaveLength(1);
  });

  it("an API error prints its details: a bad scope names the field", async () => {
    const res = await crumbs("keys", "create", "--owner", "bob", "--scopes", "read,fly");
    expect(res.code).toBe(1);
    const [first, ...details] = res.stderr.trim().split("\n");
    expect(first).toMatch(/^invalid_request: /);
    expect(details.join("\n")).toMatch(/^ {2}scopes\.1: .*read/m);
  });

  it("outbox list says when nothing is parked; retry of a seq that is not parked is not_found", async () => {
    expect(await crumbs("outbox", "list")).toEqual({ code: 0, stdout: "", stderr: "0 parked\n" });
    const retry = await crumbs("outbox", "retry", "999999");
    expect(retry.code).toBe(1);
    expect(retry.stderr).toMatch(/^not_found: no parked outbox row with seq 999999\n$/);
  });

  it("wrong usage prints the problem and one synopsis, never usage: usage:", async () => {
    const res = await crumbs("agents", "bogus");
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'crumbs agents: unknown subcommand "bogus"\nusage: crumbs agents list [--json]\n       crumbs agents apply FILE\n       crumbs agents set-model AGENT MODEL\n       crumbs agents install-default\n(`crumbs agents --help` for details)\n',
    );
  });

  it("tail prints one line per write as it happens", async () => {
    const tail = new LiveCli(["tail", "--selector", '{"schema_name":"note.v1"}'], { env, cwd: dir });
    try {
      await tail.waitForOutput(/connected to/, "stderr");
      const note = await createNote("live one");
      const line = await tail.waitForOutput(new RegExp(`^\\d+ created note\\.v1 ${note.id} v1 live one$`, "m"));
      expect(line).toBeTruthy();
    } finally {
      expect(await tail.stop()).toBe(0);
    }
  });

  it("tail survives an API restart and resumes after the last seq it printed", async () => {
    const port = await freePort();
    const config = loadApiConfig({ DATABASE_URL: db.url, NATS_URL: nats.url, PORT: String(port), HOST: "127.0.0.1", CRUMBS_TOKEN: token });
    let second = await startApi({ config });
    const tail = new LiveCli(["tail"], { env: { ...env, CRUMBS_URL: second.url }, cwd: dir });
    try {
      await tail.waitForOutput(/connected to/, "stderr");
      const before = await createNote("before restart");
      await tail.waitForOutput(new RegExp(`created note\\.v1 ${before.id} v1 before restart`));
      await second.close();
      // Written while the API that tail follows is down: it must still be printed, once.
      const during = await createNote("while down");
      second = await startApi({ config });
      await tail.waitForOutput(/reconnected/, "stderr");
      await tail.waitForOutput(new RegExp(`created note\\.v1 ${during.id} v1 while down`));
      const after = await createNote("after restart");
      await tail.waitForOutput(new RegExp(`created note\\.v1 ${after.id} v1 after restart`));
      expect(tail.stdout.split(during.id).length - 1).toBe(1);
    } finally {
      await tail.stop();
      await second.close();
    }
  });
});
