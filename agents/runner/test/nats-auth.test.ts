import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNatsTrust, mintRunnerUser } from "@crumbs/api";
import { CrumbsClient, handleEvents, type BreadcrumbEvent } from "@crumbs/agent-sdk";
import { waitFor } from "@crumbs/testkit";
import { ConfigError, loadRunnerConfig, startRunner, type Runner } from "@crumbs/runner";
import { silentLogger } from "@crumbs/telemetry";
import { chatMessage, installPageAssistant, startStack, waitForCount, type TestStack } from "./stack.ts";

/**
 * The runner on a locked nats-server, configured like docker compose's: the
 * operator/account trust preloaded, the API signing its own user with the
 * account seed, the runner connecting with runner.creds from NATS_CREDS.
 */
describe("runner on an authenticated NATS", () => {
  const trust = createNatsTrust();
  let s: TestStack;
  let dir: string;
  let credsPath: string;
  const runners: Runner[] = [];
  const clients: CrumbsClient[] = [];
  const runnerEnv = (extra: Record<string, string> = {}) => ({
    ...loadRunnerConfig({ ...s.env, ...extra }),
    token: s.env.CRUMBS_TOKEN!,
    modelTimeoutMs: 1_500,
    ackWaitMs: 3_000,
    logger: silentLogger,
  });

  beforeAll(async () => {
    s = await startStack({ trust });
    dir = await mkdtemp(join(tmpdir(), "crumbs-runner-creds-"));
    credsPath = join(dir, "runner.creds");
    await writeFile(credsPath, mintRunnerUser(trust.accountSeed).creds, { mode: 0o600 });
  });
  afterAll(async () => {
    for (const r of runners) await r.close().catch(() => {});
    for (const c of clients) await c.close().catch(() => {});
    await s?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("without NATS_CREDS the runner refuses to start and names the variable", async () => {
    const err = await startRunner(runnerEnv()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variables).toEqual(["NATS_CREDS"]);
    expect(String(err)).toMatch(/requires credentials .*Authorization Violation.*set NATS_CREDS/i);
  });

  it("an unreadable NATS_CREDS is a config error before anything connects", async () => {
    const missing = join(dir, "nope.creds");
    expect(() => loadRunnerConfig({ ...s.env, NATS_CREDS: missing })).toThrow(
      new RegExp(`NATS_CREDS: cannot read ${missing}`),
    );
    const garbage = join(dir, "garbage.creds");
    await writeFile(garbage, "not creds");
    await expect(startRunner(runnerEnv({ NATS_CREDS: garbage }))).rejects.toThrow(/NATS_CREDS: .* is not a NATS \.creds file/);
    // Readable by the owner only, as nats-init writes it; a runner under another user cannot read it.
    if (process.getuid?.() !== 0) {
      await chmod(garbage, 0o000);
      expect(() => loadRunnerConfig({ ...s.env, NATS_CREDS: garbage })).toThrow(/NATS_CREDS: cannot read/);
    }
  });

  it("credentials of another operator are refused clearly", async () => {
    const other = join(dir, "other.creds");
    await writeFile(other, mintRunnerUser(createNatsTrust().accountSeed).creds);
    await expect(startRunner(runnerEnv({ NATS_CREDS: other }))).rejects.toThrow(/refused the credentials in NATS_CREDS/);
  });

  it("with runner.creds it answers a chat message end to end, and the SDK subscribes with the same creds", async () => {
    const runner = await startRunner(runnerEnv({ NATS_CREDS: credsPath }));
    runners.push(runner);
    await installPageAssistant(s.client, runner);

    // The SDK with the creds given as a path, and one with the token alone: it asks the API for
    // its owner's credentials and reads the same events from the owner's own account.
    const sdk = new CrumbsClient({ url: s.api.url, token: s.env.CRUMBS_TOKEN!, natsUrl: s.nats.url, natsCreds: credsPath });
    const tokenOnly = new CrumbsClient({ url: s.api.url, token: s.env.CRUMBS_TOKEN!, natsUrl: s.nats.url });
    clients.push(sdk, tokenOnly);
    const seen: BreadcrumbEvent[] = [];
    const seenByOwner: BreadcrumbEvent[] = [];
    handleEvents(await sdk.subscribe({ schema_name: "agent.response.v1" }), (e) => void seen.push(e));
    handleEvents(await tokenOnly.subscribe({ schema_name: "agent.response.v1" }), (e) => void seenByOwner.push(e));

    s.fake.queue([{ kind: "text", content: "Hello from a locked NATS." }]);
    const msg = await s.client.create(chatMessage("hello?", "auth-1"));
    const [response] = await waitForCount(s.client, "agent.response.v1", 1, "session:auth-1");
    expect(response!.context).toMatchObject({
      agent_id: "page-assistant",
      content: "Hello from a locked NATS.",
      in_reply_to: { id: msg.id, version: 1 },
    });
    await waitFor(() => seen.some((e) => e.id === response!.id), { message: "SDK saw the response event" });
    await waitFor(() => seenByOwner.some((e) => e.id === response!.id), {
      message: "the token-only SDK saw the response event in its owner's account",
    });
  });
});
