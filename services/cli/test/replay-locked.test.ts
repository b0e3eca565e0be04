import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLockedStack, type TestStack } from "../../api/test/stack.ts";
import { cleanEnv, runCli } from "./run-cli.ts";

// `crumbs replay --publish` on a locked NATS (as `crumbs start` and docker compose run it): with
// nothing but the token it publishes with the credentials the API mints for the token's owner; a
// refusal is named as one, in one line with the fix, never as an unreachable server.

describe("crumbs replay --publish on a locked NATS", () => {
  let s: TestStack;
  let url: string;
  let token: string;
  let dir: string;
  beforeAll(async () => {
    s = await startLockedStack();
    url = await s.serve();
    const res = await s.call("/v1/keys", { method: "POST", json: { owner: "rp", scopes: ["read", "write", "subscribe"] } });
    token = ((await res.json()) as { token: string }).token;
    const made = await s.call("/v1/breadcrumbs", { method: "POST", token, json: { schema_name: "note.v1", title: "n", context: {} } });
    expect(made.status).toBe(201);
    dir = await mkdtemp(join(tmpdir(), "crumbs-replay-locked-"));
  });
  afterAll(async () => {
    await s?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const replay = (env: Record<string, string>, prefix = "replay") =>
    runCli(["replay", "--since", "1h", "--publish", prefix], { env: cleanEnv({ CRUMBS_URL: url, CRUMBS_TOKEN: token, ...env }), cwd: dir });

  it("credentials of another account: one line saying NATS refused them and what to do, not unreachable", async () => {
    // Keys of another operator and account, as `crumbs keys nats-init` makes them for a new server.
    const other = join(dir, "other-account");
    expect((await runCli(["keys", "nats-init", "--out", other], { env: cleanEnv({}) })).code).toBe(0);
    const foreign = join(other, "runner.creds");
    const res = await replay({ NATS_URL: s.natsServer.url, NATS_CREDS: foreign });
    expect(res.code).toBe(1);
    const lines = res.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^nats_unauthorized: NATS at nats:\/\/127\.0\.0\.1:\d+ refused the credentials \(.*Authorization Violation.*\): NATS_CREDS is not valid for this server; unset it/i);
    expect(res.stderr).not.toContain("nats_unreachable");
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it("a file that is not a .creds file is named as such", async () => {
    const bad = join(dir, "bad.creds");
    await writeFile(bad, "not credentials");
    const res = await replay({ NATS_URL: s.natsServer.url, NATS_CREDS: bad });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(`invalid_nats_creds: ${bad} is not a NATS .creds file (a user JWT and a user nkey seed) (NATS_CREDS)`);
  });

  it("with the token alone: the owner's minted credentials store the history in the owner's REPLAY stream, once", async () => {
    // No NATS_URL, no NATS_CREDS: the API says where NATS is and mints the owner's credentials,
    // which may publish on replay.rp.>, the subjects of the REPLAY stream in the owner's account.
    const first = await replay({});
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^replayed 1 events in [\d.]+ s \(\d+ events\/s\); published to replay\.>: 1 into JetStream, 0 core$/m);
    // The same history again within the stream's duplicate window: the msg ids find it already there.
    const again = await replay({});
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/published to replay\.>: 1 into JetStream \(1 already there\), 0 core$/m);
  });

  it("with the token alone, on crumbs.>: refused in one line naming the fix", async () => {
    // crumbs.<owner>.> holds only events the API committed: owner credentials may never publish there.
    const res = await replay({}, "crumbs");
    expect(res.code).toBe(1);
    const lines = res.stderr.trim().split("\n").filter((l) => !l.startsWith("replayed "));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^nats_forbidden: NATS refused these credentials to publish on crumbs\.rp\.created\.note\.v1 \(Permissions Violation\): an owner's credentials publish replays on <prefix>\.<owner>\.>/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
