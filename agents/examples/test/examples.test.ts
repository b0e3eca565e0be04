import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForConsumerDrained } from "@crumbs/testkit";
import { STREAM_NAME } from "@crumbs/schemas";
import { createNatsTrust } from "@crumbs/api";
import {
  chatMessage,
  listAll,
  pageContext,
  spawnNode,
  startStack,
  waitForCount,
  waitForOutput,
  type TestStack,
} from "../../runner/test/stack.ts";
import { runCli } from "../../../services/cli/test/run-cli.ts";


/** An example as its README runs it: TypeScript through tsx. */
const run = (file: string, env: Record<string, string>) => spawnNode(["--import", "tsx", file], env);
const started = waitForOutput;

describe("example agents", () => {
  let s: TestStack;
  const stacks: TestStack[] = [];
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    s = await startStack();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    for (const st of stacks) await st.close();
    await s?.close();
  });

  it("the SDK echo agent answers a chat message in its session", async () => {
    const echo = run("agents/examples/sdk-echo-agent.ts", s.env);
    children.push(echo);
    await started(echo, "sdk-echo listening");
    const msg = await s.client.create(chatMessage("hello there", "ex1"));
    const [r] = await waitForCount(s.client, "agent.response.v1", 1, "session:ex1");
    expect(r!.context).toMatchObject({
      agent_id: "sdk-echo",
      content: "echo: hello there",
      in_reply_to: { id: msg.id },
    });
    echo.kill("SIGTERM");
  });

  it("the raw NATS agent answers with nothing but nats and fetch", async () => {
    const raw = run("agents/examples/raw-nats-agent.ts", s.env);
    children.push(raw);
    await started(raw, "raw-upper listening");
    await s.client.create(chatMessage("make me loud", "ex2"));
    await s.client.create({ ...chatMessage("not a user message", "ex2"), tags: ["session:ex2"] });
    const [r] = await waitForCount(s.client, "agent.response.v1", 1, "session:ex2");
    expect(r!.context).toMatchObject({ agent_id: "raw-upper", content: "MAKE ME LOUD" });
    // Drained: both messages were delivered to the agent and acked, so the count below is final.
    const info = await waitForConsumerDrained(s.nats.url, STREAM_NAME, "raw-upper");
    expect(info.delivered.stream_seq).toBeGreaterThanOrEqual(2);
    expect(await listAll(s.client, "agent.response.v1", "session:ex2")).toHaveLength(1);
    raw.kill("SIGTERM");
  });

  it("crumbs replay --publish feeds every page-context version, in order, to a custom agent", async () => {
    // Locked NATS, as `crumbs start` ships it: the owner's replays land in its own REPLAY stream, which
    // the echo agent's durable (`queue: "sdk-echo"`) reads; an open server has no stream for them.
    const locked = await startStack({ trust: createNatsTrust() });
    stacks.push(locked);
    const s = locked;
    const base = pageContext("ext-replay");
    const page = await s.client.create({ ...base, tags: [...base.tags, "session:rp"] });
    let cur = page;
    for (let v = 2; v <= 3; v++) {
      cur = await s.client.patch(
        page.id,
        { title: `page v${v}`, context: { ...base.context, title: `page v${v}` } },
        { ifMatch: cur.version },
      );
    }
    const selector = '{"schema_name":"browser.page.context.v1"}';

    const replay = async (args: string[]) => {
      const r = await runCli(["replay", ...args], { env: { ...process.env, ...s.env } });
      if (r.code !== 0) throw new Error(`replay exited ${r.code}: ${r.stdout}${r.stderr}`);
      return r.stdout + r.stderr;
    };
    const printed = await replay(["--selector", selector, "--since", "1h", "--json"]);
    const events = printed
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { id: string; version: number; seq: number });
    expect(events.filter((e) => e.id === page.id).map((e) => e.version)).toEqual([1, 2, 3]);

    // The echo agent listens on the replay prefix and answers each published version.
    const echo = run("agents/examples/sdk-echo-agent.ts", {
      ...s.env,
      ECHO_SELECTOR: selector,
      ECHO_SUBJECT_PREFIX: "replay",
    });
    children.push(echo);
    await started(echo, "sdk-echo listening");
    await replay(["--selector", selector, "--since", "1h", "--publish", "replay"]);
    const answers = await waitForCount(s.client, "agent.response.v1", 3, "session:rp");
    const repliedTo = answers.map((a) => (a.context.in_reply_to as { version: number }).version).sort();
    expect(repliedTo).toEqual([1, 2, 3]);
    echo.kill("SIGTERM");
  });
});
