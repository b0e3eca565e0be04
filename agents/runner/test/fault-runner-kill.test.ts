import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Breadcrumb } from "@crumbs/agent-sdk";
import { STREAM_NAME } from "@crumbs/schemas";
import { waitFor, waitForConsumerDrained } from "@crumbs/testkit";
import type { RecordedRequest } from "@crumbs/testkit";
import { actionResult, chatMessage, listAll, spawnCrumbs, startStack, waitForAgentDrained, waitForCount, waitForOutput, type Proc, type TestStack } from "./stack.ts";

const ACK_WAIT_MS = 3_000;
const PLAIN = 20; // answered before the kill, and again as many queued behind the in-flight call
const SLOW = "SLOW-MARKER";
const CLICK = "CLICK-MARKER";
const DUP = "DUP-MARKER";

// One trigger at a time (RUNNER_CONCURRENCY=1): each kill below lands at a known point of the stream
// (every trigger before the slow one answered, none after). With the default of 8 the triggers around
// the slow one run beside it, and what a kill leaves behind depends on timing; what concurrency keeps
// (each session in order, the others not held) is concurrency.test.ts.
const spawnRunner = (env: Record<string, string>) =>
  spawnCrumbs(["runner"], { ...env, RUNNER_ACK_WAIT_MS: String(ACK_WAIT_MS), RUNNER_CONCURRENCY: "1" });
const runnerUp = (r: Proc) => waitForOutput(r, "agent running");

/**
 * The API behind a proxy that SIGKILLs the runner using it right after the API
 * committed a write whose body contains `killAfter`: the output exists, the
 * trigger is not acked, so the next runner gets it again.
 */
async function killingProxy(apiUrl: string, killAfter: string, victim: () => Proc | undefined) {
  let fired = false;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === "string" && !["host", "connection", "content-length"].includes(k)) headers.set(k, v);
      }
      const up = await fetch(new URL(req.url ?? "/", apiUrl), {
        method: req.method,
        headers,
        ...(body.length ? { body } : {}),
      });
      const payload = Buffer.from(await up.arrayBuffer());
      if (!fired && req.method === "POST" && up.ok && body.toString("utf8").includes(killAfter)) {
        fired = true;
        victim()?.kill("SIGKILL");
        res.destroy();
        return;
      }
      const out: Record<string, string> = {};
      up.headers.forEach((v, k) => {
        if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k))
          out[k] = v;
      });
      res.writeHead(up.status, out).end(payload);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    fired: () => fired,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const text = (req: RecordedRequest) => JSON.stringify(req.body.messages);
const isStep2 = (req: RecordedRequest) => req.body.messages.some((m) => m.role === "tool");
const replyTo = (b: Breadcrumb) => (b.context.in_reply_to as { id: string }).id;

/**
 * The only runner is SIGKILLed twice: once while a model call is in flight
 * (and a browser action result then arrives while no runner runs), once right
 * after an answer was committed but before its trigger was acked. Each time a
 * fresh process takes over: every trigger is answered once, no output twice.
 */
describe("the only runner process killed mid-task", () => {
  let s: TestStack;
  let nc: NatsConnection;
  let proxy: Awaited<ReturnType<typeof killingProxy>>;
  const children: Proc[] = [];
  const calls = { slow: 0, dup: 0 };

  beforeAll(async () => {
    s = await startStack();
    nc = await connect({ servers: s.nats.url });
    proxy = await killingProxy(s.api.url, `${DUP} first answer`, () => children[1]);
    await s.client.create({
      schema_name: "agent.def.v1",
      title: "fault agent",
      tags: [],
      context: {
        agent_id: "fault",
        model: "test-model",
        system_prompt: "answer briefly",
        subscriptions: { selectors: [{ schema_name: "chat.message.v1", any_tags: ["user:message"] }] },
        tools: ["browser_click"],
        capabilities: {},
      },
    });
    s.fake.setScript((req) => {
      const t = text(req);
      if (t.includes(CLICK)) {
        return isStep2(req)
          ? { kind: "text", content: "clicked, task done" }
          : { kind: "tools", calls: [{ name: "browser_click", arguments: { ref: "e12" }, id: "call_k" }] };
      }
      if (t.includes(SLOW)) {
        // The first call outlives the runner that made it; the retry answers at once.
        return calls.slow++ === 0
          ? {
              kind: "slow",
              delayMs: 6_000,
              then: { kind: "text", content: "late answer of the dead runner" },
            }
          : { kind: "text", content: "answer after restart" };
      }
      // A redelivered trigger gets a different answer: only the idempotency key keeps it from being written.
      if (t.includes(DUP))
        return { kind: "text", content: `${DUP} ${calls.dup++ === 0 ? "first" : "second"} answer` };
      const m = /plain-\d+/.exec(t);
      return { kind: "slow", delayMs: 10, then: { kind: "text", content: `ok ${m?.[0] ?? "?"}` } };
    });
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await Promise.all(children.map((c) => c.exited));
    await proxy?.close();
    await nc?.close();
    await s?.close();
  });

  it("redelivers to a new process, continues the task, and writes every output once", async () => {
    const a = spawnRunner(s.env);
    children.push(a);
    await runnerUp(a);

    // Step 1 of a task: a tool call becomes a browser action for the extension.
    const task = await s.client.create(
      chatMessage(`${CLICK} click get started`, "task", ["extension:ext-k"]),
    );
    const [action] = await waitForCount(s.client, "browser.action.v1", 1, "session:task");

    const create = (from: number, n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) => {
          const name = `plain-${String(from + i).padStart(3, "0")}`;
          return s.client.create(chatMessage(name, name));
        }),
      );
    const before = await create(0, PLAIN);
    const slow = await s.client.create(chatMessage(`${SLOW} take your time`, "slow"));
    const after = await create(PLAIN, PLAIN);

    // Kill 1. Triggers are handled in stream order: with the slow call in flight, all before it are answered.
    await waitFor(() => s.fake.requests.some((r) => text(r).includes(SLOW)), {
      timeout: 15_000,
      message: "slow model call in flight",
    });
    a.kill("SIGKILL");
    await a.exited;
    const atKill = await listAll(s.client, "agent.response.v1");
    expect(atKill.map(replyTo).sort()).toEqual(before.map((b) => b.id).sort());

    // The browser answers while no runner runs: the result waits on the durable results consumer.
    await s.client.create(actionResult(action!, ["extension:ext-k"]));
    const jsm = await nc.jetstreamManager();
    await waitFor(
      async () => (await jsm.consumers.info(STREAM_NAME, "crumbs_runner_action_results")).num_pending === 1,
      { timeout: 5_000, message: "action result queued for the runners" },
    );
    expect(await listAll(s.client, "agent.response.v1", "session:task")).toHaveLength(0);

    // Runner B writes through the proxy; it continues the task first.
    const t0 = Date.now();
    const b = spawnRunner({ ...s.env, CRUMBS_URL: proxy.url });
    children.push(b);
    // Up to a minute: the new process starts from source (tsx) first, 15 s was too little at load 15.
    const [taskAnswer] = await waitForCount(s.client, "agent.response.v1", 1, "session:task", 60_000);
    const bAnswered = Date.now() - t0;

    // Kill 2: B dies the moment the API committed its answer to this trigger, before the ack.
    const dup = await s.client.create(chatMessage(`${DUP} answer me`, "dup"));
    await b.exited;
    expect(proxy.fired()).toBe(true);
    expect(
      (await listAll(s.client, "agent.response.v1", "session:dup")).map((r) => r.context.content),
    ).toEqual([`${DUP} first answer`]);

    const c = spawnRunner(s.env);
    children.push(c);
    const t1 = Date.now();
    const triggers = [task, ...before, slow, ...after, dup];
    await waitForCount(s.client, "agent.response.v1", triggers.length, undefined, 20_000);
    await waitFor(() => calls.dup === 2, { timeout: ACK_WAIT_MS + 5_000, message: "dup redelivered to C" });
    const cDone = Date.now() - t1;
    // Everything a dead runner held was redelivered and acked (after its outputs, idempotently),
    // on the agent's consumer and on the results consumer: nothing more can be written.
    await waitForAgentDrained(s, "fault");
    await waitForConsumerDrained(s.nats.url, STREAM_NAME, "crumbs_runner_action_results");

    const responses = await listAll(s.client, "agent.response.v1");
    expect(responses).toHaveLength(triggers.length);
    expect(new Set(responses.map(replyTo))).toEqual(new Set(triggers.map((t) => t.id)));
    expect(responses.every((r) => r.version === 1)).toBe(true);
    const actions = await listAll(s.client, "browser.action.v1");
    expect(actions.map((x) => [x.id, x.version])).toEqual([[action!.id, 1]]);

    const answerOf = (id: string) => responses.find((r) => replyTo(r) === id)!.context.content;
    expect(answerOf(slow.id)).toBe("answer after restart");
    expect(taskAnswer!.context.content).toBe("clicked, task done");
    expect(answerOf(dup.id)).toBe(`${DUP} first answer`); // the second model answer was not written
    for (const p of [...before, ...after]) expect(answerOf(p.id)).toBe(`ok ${p.title}`);

    // The in-flight call was made again after the kill; the task's first step was not.
    expect(s.fake.requests.filter((r) => text(r).includes(SLOW))).toHaveLength(2);
    const clickCalls = s.fake.requests.filter((r) => text(r).includes(CLICK));
    expect(clickCalls.map(isStep2)).toEqual([false, true]);
    expect(text(clickCalls[1]!)).toContain("url_changed");

    for (const name of ["crumbs_runner_action_results", ...(await agentConsumers(jsm))]) {
      const info = await jsm.consumers.info(STREAM_NAME, name);
      expect(info.num_pending + info.num_ack_pending, name).toBe(0);
    }
    expect(c.output.join("")).not.toMatch(/trigger failed|action result failed/);
    console.log(
      `${triggers.length} triggers; kill 1 mid model call after ${atKill.length} answers; ` +
        `B answered the task ${bAnswered} ms after spawn; kill 2 after a committed write; ` +
        `C redelivered and settled in ${cDone} ms (ack wait ${ACK_WAIT_MS} ms)`,
    );
  }, 60_000);
});

async function agentConsumers(jsm: Awaited<ReturnType<NatsConnection["jetstreamManager"]>>) {
  const names: string[] = [];
  for await (const c of jsm.consumers.list(STREAM_NAME)) if (c.name.startsWith("agent_")) names.push(c.name);
  return names;
}
