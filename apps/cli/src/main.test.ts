import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { run } from "./main.ts";

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

  it("exits 2 on an unknown command", async () => {
    const r = await cli("frobnicate");
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown command "frobnicate"');
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
    [["agents", "remove", "x"], "usage: crumbs agents"],
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
