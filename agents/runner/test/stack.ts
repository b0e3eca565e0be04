import { loadApiConfig, mintRunnerUser, startApi, type NatsTrust, type RunningApi } from "@crumbs/api";
import { lockedServerConfig } from "@crumbs/api/testing";
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { CrumbsClient, type Breadcrumb, type CreateBreadcrumb } from "@crumbs/agent-sdk";
import { connect } from "nats";
import { msgIdFor, STREAM_NAME, subjectFor } from "@crumbs/schemas";
import { PAGE_ASSISTANT_FILE } from "@crumbs/agent-definitions";
import { startRunner, type Runner, type RunnerOptions } from "@crumbs/runner";
import {
  FakeOpenAI,
  NatsServer,
  createTestDatabase,
  waitFor,
  waitForConsumerDrained,
  type TestDatabase,
} from "@crumbs/testkit";
import { silentLogger } from "@crumbs/telemetry";

export const TOKEN = "test-token-agents-0001";

/** A real API on a fresh Postgres database and its own nats-server, plus a fake model. */
export interface TestStack {
  api: RunningApi;
  nats: NatsServer;
  db: TestDatabase;
  fake: FakeOpenAI;
  client: CrumbsClient;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * With `trust` the nats-server is locked like the docker compose one: the API signs its
 * user with the account seed and the client connects with the runner's credentials.
 */
export async function startStack(opts: { trust?: NatsTrust; maxPayload?: number } = {}): Promise<TestStack> {
  const { trust } = opts;
  const [nats, db, fake] = await Promise.all([
    NatsServer.start({ ...(trust ? { extraConfig: (dir: string) => lockedServerConfig(trust, dir) } : {}), ...(opts.maxPayload ? { maxPayload: opts.maxPayload } : {}) }),
    createTestDatabase("crumbs_agents"),
    FakeOpenAI.start(),
  ]);
  const config = loadApiConfig({
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    PORT: "0",
    HOST: "127.0.0.1",
    CRUMBS_TOKEN: TOKEN,
    CRUMBS_RELAY_POLL_MS: "50",
    ...(trust ? { CRUMBS_NATS_ACCOUNT_SEED: trust.accountSeed } : {}),
  });
  const api = await startApi({ config, logger: silentLogger });
  const client = new CrumbsClient({
    url: api.url,
    token: TOKEN,
    natsUrl: nats.url,
    ...(trust ? { natsCreds: mintRunnerUser(trust.accountSeed).creds } : {}),
  });
  const env = {
    CRUMBS_URL: api.url,
    CRUMBS_TOKEN: TOKEN,
    NATS_URL: nats.url,
    OPENAI_BASE_URL: fake.url,
    OPENROUTER_BASE_URL: fake.url,
    OPENROUTER_API_KEY: "or-test-key",
  };
  return {
    api,
    nats,
    db,
    fake,
    client,
    env,
    async close() {
      await client.close().catch(() => {});
      await api.close().catch(() => {});
      await fake.close().catch(() => {});
      await nats.dispose().catch(() => {});
      await db.drop().catch(() => {});
    },
  };
}

export function chatMessage(content: string, session: string, extraTags: string[] = []) {
  return {
    schema_name: "chat.message.v1",
    title: content.slice(0, 60),
    tags: ["user:message", `session:${session}`, ...extraTags],
    context: { role: "user", content, session_id: session },
  };
}

/** A page context like the extension writes, with a snapshot the model can act on. */
export function pageContext(extension: string, title = "Pricing - Example") {
  return {
    schema_name: "browser.page.context.v1",
    title,
    key: `browser.page.context:${extension}`,
    tags: ["browser:context", "browser:active-tab", `extension:${extension}`, "url:example.com"],
    context: {
      url: "https://example.com/pricing",
      domain: "example.com",
      title,
      favicon: "https://example.com/favicon.ico",
      viewport: { width: 1280, height: 800, scrollX: 0, scrollY: 0 },
      dom: {
        interactiveElements: { e12: { role: "button", name: "Get started" } },
        map: { secret: "dom-map" },
      },
      content: { headings: ["Pricing"], links: [], forms: [], mainText: "Plans start at $10." },
      meta: { description: "Pricing page" },
      session: { extensionId: extension, sessionId: "sess-internal" },
      snapshot: { text: '- heading "Pricing" [level=1]\n- button "Get started" [ref=e12]', refs: 1 },
    },
  };
}

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** A child process whose stdout and stderr are collected in `output`; `exited` resolves with its exit code. */
export type Proc = ChildProcess & { output: string[]; exited: Promise<number | null> };

/** `node ARGS` from the repository root with the test's environment plus `env`, as a deployment runs it. */
export function spawnNode(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }) as Proc;
  child.output = [];
  child.exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdout?.on("data", (d: Buffer) => child.output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => child.output.push(d.toString()));
  return child;
}

/** `crumbs ARGS` (`api`, `runner`) as a real process, configured by environment like in docker compose. */
export function spawnCrumbs(args: string[], env: Record<string, string>): Proc {
  return spawnNode(["services/cli/bin/crumbs.js", ...args], { LOG_LEVEL: "info", ...env }); // "agent running" is an info line
}

/** Waits until the process has printed `text`; a timeout shows what it printed. */
export async function waitForOutput(p: Proc, text: string, timeout = 20_000): Promise<void> {
  await waitFor(() => p.output.join("").includes(text), { timeout, message: `"${text}"; output: ${p.output.join("").slice(-2_000)}` });
}

/** The page assistant's agent.def.v1, as `crumbs start` installs it (agents/definitions/page-assistant.json). */
export const pageAssistant = JSON.parse(await readFile(PAGE_ASSISTANT_FILE, "utf8")) as CreateBreadcrumb;

/** Writes the page assistant and waits until `runner` hosts it; the definition as written. */
export async function installPageAssistant(client: CrumbsClient, runner: Pick<Runner, "agents">): Promise<Breadcrumb> {
  const def = await client.create(pageAssistant);
  await waitFor(() => runner.agents().some((a) => a.def.agent_id === "page-assistant"), { message: "agent loaded" });
  return def;
}

/** What the page looked like after a click that opened the signup form. */
const SIGNUP = { url: "https://example.com/signup", title: "Signup", url_changed: true };

/**
 * The extension's answer to an action, as it writes it: by default a click that went through and
 * opened the signup form; `fields` change the title, status (code, message) or observation.
 */
export function actionResult(
  action: Pick<Breadcrumb<"browser.action.v1">, "id" | "context">,
  tags: string[],
  fields: { title?: string; status?: "ok" | "error"; code?: string; message?: string; observation?: typeof SIGNUP } = {},
) {
  const { title = "click ok", observation = SIGNUP, ...outcome } = fields;
  return {
    schema_name: "browser.action.result.v1",
    title,
    tags: ["browser:action-result", ...tags],
    context: { request_id: action.context.request_id, action_id: action.id, status: "ok", observation, ...outcome },
  };
}

/** Every breadcrumb of a schema, newest first (a known schema's contexts typed by it). */
export async function listAll<S extends string>(
  client: CrumbsClient,
  schema_name: S,
  tag?: string,
): Promise<Breadcrumb<S>[]> {
  const out: Breadcrumb<S>[] = [];
  for await (const b of client.listAll({ schema_name, ...(tag ? { tag: [tag] } : {}) })) out.push(b);
  return out;
}

export async function waitForCount<S extends string>(
  client: CrumbsClient,
  schema: S,
  n: number,
  tag?: string,
  timeout = 15_000,
) {
  return waitFor(
    async () => {
      const items = await listAll(client, schema, tag);
      return items.length >= n ? items : undefined;
    },
    { timeout, message: `${n} ${schema}${tag ? ` tagged ${tag}` : ""}` },
  );
}

/** The names of the durable consumers the runner made for an agent (one per filter subject). */
export async function agentConsumers(s: TestStack, agentId: string): Promise<string[]> {
  const nc = await connect({ servers: s.nats.url });
  try {
    const names: string[] = [];
    for await (const c of (await nc.jetstreamManager()).consumers.list(STREAM_NAME)) {
      if (c.name.startsWith("agent_") && c.name.includes(`_${agentId}_`)) names.push(c.name);
    }
    return names;
  } finally {
    await nc.close();
  }
}

/**
 * Waits until the agent's consumer has delivered every trigger and every delivery is acked,
 * redeliveries of what a killed runner held included: from then on no more answers can come.
 */
export async function waitForAgentDrained(s: TestStack, agentId: string, timeout = 30_000) {
  const [name, ...more] = await agentConsumers(s, agentId);
  if (!name || more.length > 0) throw new Error(`expected one consumer for ${agentId}, found ${[name, ...more]}`);
  return waitForConsumerDrained(s.nats.url, STREAM_NAME, name, { timeout });
}

/**
 * A runner in this process on the stack, with the fake model behind both model routes and a 3 s
 * ack wait; `opts` override any of it (step limit, model timeout, logger).
 */
export function startStackRunner(
  s: Pick<TestStack, "api" | "nats" | "fake" | "env">,
  opts: Partial<RunnerOptions> = {},
): Promise<Runner> {
  return startRunner({
    crumbsUrl: s.api.url,
    token: s.env.CRUMBS_TOKEN!,
    natsUrl: s.nats.url,
    openaiBaseUrl: s.fake.url,
    openrouterBaseUrl: s.fake.url,
    openrouterApiKey: "or-test-key",
    ackWaitMs: 3_000,
    ...opts,
  });
}

/**
 * Waits until the durable consumer `consumer` has acked the event of `b`'s write (its creation,
 * or the PATCH that made `b.version`). The runner acks a trigger only after writing what it answers,
 * so from then on nothing more can come of that event: this is the proof that "nothing else
 * happened", where a sleep would only hope so. Once the event is in the stream, it counts in the
 * consumer's num_pending until delivered (unless its filter leaves it out) and in num_ack_pending
 * until acked.
 */
export async function waitForHandled(s: TestStack, consumer: string, b: Breadcrumb, type: "created" | "updated" = "created", timeout = 15_000): Promise<void> {
  const nc = await connect({ servers: s.nats.url });
  try {
    const jsm = await nc.jetstreamManager();
    const msgId = msgIdFor(b.id, b.version, type);
    await waitFor(
      async () => {
        const m = await jsm.streams.getMessage(STREAM_NAME, { last_by_subj: subjectFor(b.owner, type, b.schema_name) }).catch(() => undefined);
        return m?.header.get("Nats-Msg-Id") === msgId;
      },
      { timeout, message: `${msgId} in the stream` },
    );
    await waitFor(
      async () => {
        const info = await jsm.consumers.info(STREAM_NAME, consumer);
        return info.num_pending === 0 && info.num_ack_pending === 0;
      },
      { timeout, message: `${consumer} past ${msgId}, every delivery acked` },
    );
  } finally {
    await nc.close();
  }
}
