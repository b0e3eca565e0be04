import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { formatDetails } from "./errors.ts";
import { run, withDotEnv } from "./main.ts";

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, {
    env: { CRUMBS_URL: "http://127.0.0.1:9", CRUMBS_TOKEN: "t" },
    cwd: "/nonexistent",
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    stdin: Readable.from([]),
    fetch: () => Promise.reject(new Error("no network in unit tests")),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("command line", () => {
  it("lists the commands on --help and exits 0", async () => {
    const r = await cli("--help");
    expect(r.code).toBe(0);
    for (const name of ["start", "api", "migrate", "get", "put", "history", "tail", "replay", "agents"]) {
      expect(r.out).toMatch(new RegExp(`^  ${name}\\s`, "m"));
    }
  });

  it("prints usage and exits 2 without a command", async () => {
    const r = await cli();
    expect(r.code).toBe(2);
    expect(r.err).toContain("usage: crumbs <command>");
  });

  it("exits 2 on an unknown command, pointing at --help", async () => {
    const r = await cli("frobnicate");
    expect(r.code).toBe(2);
    expect(r.err).toBe('crumbs: unknown command "frobnicate"\nusage: crumbs <command> [options]\n(`crumbs --help` lists the commands)');
  });

  it("prints its version", async () => {
    for (const flag of ["--version", "-V", "version"]) expect(await cli(flag)).toEqual({ code: 0, out: "crumbs 0.1.0", err: "" });
  });

  // The first `tail` loads its command module and the SDK root (nats.js) cold: 1.3 s on an idle
  // machine, 9 s at load 13-15 on 2 cores, so the unit default of 5 s is no bound for it.
  it("a usage error found deep in a parser still shows the command's synopsis", { timeout: 60_000 }, async () => {
    const r = await cli("tail", "--selector", "[1]");
    expect(r.err.split("\n")).toEqual([
      `crumbs tail: --selector must be a JSON object, e.g. '{"schema_name":"browser.page.context.v1"}'`,
      "usage: crumbs tail [--selector JSON] [--after SEQ] [--json]",
      "(`crumbs tail --help` for details)",
    ]);
  });

  it.each([
    [["get", "--bogus", "x"], "Unknown option '--bogus'"],
    [["get"], "missing argument"],
    [["get", "a", "b"], 'unexpected argument "b"'],
    [["get", "a", "--view", "raw"], '--view accepts only "llm"'],
    [["replay", "--since", "1h", "--after", "3"], "--since or --after"],
    [["replay", "--since", "yesterday"], 'invalid time "yesterday"'],
    [["replay", "--after=-1"], 'invalid seq "-1"'],
    [["tail", "--selector", "{nope"], "--selector is not JSON"],
    [["tail", "--selector", "[1]"], "must be a JSON object"],
    [["replay", "--publish", "a.*"], "invalid --publish prefix"],
    [["agents", "remove", "x"], 'crumbs agents: unknown subcommand "remove"\nusage: crumbs agents list'],
    [["list", "--limit", "0"], "--limit must be an integer from 1 to 500"],
    [["list", "--all", "--cursor", "c"], "use --cursor or --all, not both"],
    [["delete"], "missing argument"],
    [["delete", "x", "--if-match", "v2"], "--if-match takes a version number"],
    [["keys", "nats-creds", "--kind", "extension"], "--kind extension needs --extension-id"],
    [["outbox"], "missing subcommand"],
    [["outbox", "retry"], "give one seq or --all"],
    [["outbox", "retry", "3", "--all"], "give one seq or --all"],
    [["outbox", "retry", "0"], "seq must be a positive integer"],
    [["outbox", "list", "--limit", "5000"], "--limit must be an integer from 1 to 1000"],
  ])("rejects %j with exit 2", async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it("shows a command's usage on --help", async () => {
    const r = await cli("replay", "--help");
    expect(r.code).toBe(0);
    expect(r.out).toContain("--publish PREFIX");
  });

  it("exits 1 with a clear line when the API cannot be reached", async () => {
    const r = await cli("get", "abc");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^unreachable: cannot reach the crumbs API at http:\/\/127\.0\.0\.1:9/);
  });
});

describe("API error details", () => {
  it("prints each issue at its path, the limit, and the other fields", () => {
    expect(
      formatDetails({
        issues: [{ path: ["scopes", 1], code: "invalid_value", message: 'expected "read", "write", "subscribe" or "admin"' }, { path: [], message: "bad" }],
        limit: { name: "body", max: 1024, unit: "bytes" },
        current_version: 3,
        allow: ["GET", "PATCH"],
      }),
    ).toEqual([
      '  scopes.1: expected "read", "write", "subscribe" or "admin"',
      "  (body): bad",
      "  limit: body at most 1024 bytes",
      "  current_version: 3",
      "  allow: GET, PATCH",
    ]);
    expect(formatDetails(undefined)).toEqual([]);
  });
});

describe(".env", () => {
  it("fills what the environment does not set; the environment wins", async () => {
    const dir = await mkdtemp(join(tmpdir(), "crumbs-dotenv-"));
    try {
      await writeFile(join(dir, ".env"), "# comment\nPORT=9000\nOPENAI_API_KEY='sk-x'\nEMPTY=\n");
      const { env, loaded } = withDotEnv({ PORT: "8081" }, dir);
      expect(env).toEqual({ PORT: "8081", OPENAI_API_KEY: "sk-x", EMPTY: "" });
      expect(loaded).toEqual(["EMPTY", "OPENAI_API_KEY"]);
      expect(withDotEnv({ A: "1" }, join(dir, "none"))).toEqual({ env: { A: "1" }, loaded: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
