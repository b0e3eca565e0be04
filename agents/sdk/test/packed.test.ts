import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNatsTrust } from "@crumbs/api";
import { CrumbsClient } from "@crumbs/agent-sdk";
import { waitFor } from "@crumbs/testkit";
import { chatMessage, startStack, waitForCount, type TestStack } from "../../runner/test/stack.ts";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

// What a user of the published SDK writes: plain JavaScript, run with plain node. A token is all it
// is given: the SDK asks the API for the owner's NATS credentials and servers.
const AGENT = `
import { CrumbsClient } from "@crumbs/agent-sdk";

const client = new CrumbsClient({ url: process.env.CRUMBS_URL, token: process.env.CRUMBS_TOKEN });
const stop = new AbortController();
const messages = await client.subscribe(
  { schema_name: "chat.message.v1", any_tags: ["user:message"] },
  { durable: "packed-agent", deliver: "all", signal: stop.signal },
);
console.log("packed agent listening");
for await (const { event } of messages) {
  const answer = await client.respond(event.breadcrumb, "packed: " + event.breadcrumb.context.content, { agentId: "packed" });
  console.log("answered " + answer.id);
  stop.abort();
}
await client.close();
console.log("packed agent done");
`;

describe("the packed SDK in a plain Node project outside the repository", () => {
  let s: TestStack;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "crumbs-packed-sdk-"));
    // Locked NATS, as `crumbs start` and docker compose ship it: every owner has an account of its own.
    s = await startStack({ trust: createNatsTrust() });
  });
  afterAll(async () => {
    await s?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("npm packs @crumbs/schemas and @crumbs/agent-sdk, installs them with npm, and an ordinary owner's agent run by plain node with only a token answers its chat", async () => {
    const packed = join(dir, "packed");
    const { stdout } = await run(process.execPath, [join(repoRoot, "scripts/pack-libraries.mjs"), "--out", packed], { cwd: repoRoot });
    const tarballs = stdout.trim().split("\n");
    expect(tarballs.map((t) => t.slice(packed.length + 1))).toEqual(["crumbs-schemas-0.1.0.tgz", "crumbs-agent-sdk-0.1.0.tgz"]);

    // A project of its own: no workspace, no tsx, the registry's zod and nats (from the npm cache when it has them).
    const project = join(dir, "agent");
    await run("mkdir", ["-p", project]);
    await writeFile(join(project, "package.json"), JSON.stringify({ name: "my-agent", private: true, type: "module" }));
    await writeFile(join(project, "agent.js"), AGENT);
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs], { cwd: project, timeout: 180_000 });
    const installed = join(project, "node_modules/@crumbs/agent-sdk");
    const files = await readdir(join(installed, "dist"));
    expect(files).toContain("index.js");
    expect(files).toContain("index.d.ts");
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);

    // An ordinary owner's key, made as a user would make it.
    const res = await fetch(`${s.env.CRUMBS_URL}/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.env.CRUMBS_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ owner: "pat", scopes: ["read", "write", "subscribe"], name: "pat-agent" }),
    });
    expect(res.status).toBe(201);
    const patToken = ((await res.json()) as { token: string }).token;
    const pat = new CrumbsClient({ url: s.env.CRUMBS_URL!, token: patToken });
    const agent = spawn(process.execPath, ["agent.js"], {
      cwd: project,
      env: { PATH: process.env.PATH ?? "", CRUMBS_URL: s.env.CRUMBS_URL!, CRUMBS_TOKEN: patToken },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    agent.stdout.on("data", (d: Buffer) => (output += d.toString()));
    agent.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => agent.once("exit", resolve));
    try {
      await waitFor(() => output.includes("packed agent listening"), { timeout: 20_000, message: `the agent starts: ${output}` });
      const msg = await pat.create(chatMessage("from a packed SDK", "packed-1"));
      const [answer] = await waitForCount(pat, "agent.response.v1", 1, "session:packed-1");
      expect(answer!.context).toMatchObject({ agent_id: "packed", content: "packed: from a packed SDK", in_reply_to: { id: msg.id, version: 1 } });
      expect(answer!.owner).toBe("pat");
      // The AbortSignal ended the for await loop, and the process finished on its own.
      expect(await exited).toBe(0);
      expect(output).toContain(`answered ${answer!.id}`);
      expect(output).toContain("packed agent done");
    } finally {
      if (agent.exitCode === null) agent.kill("SIGKILL");
    }
    // Two tsc builds and an npm install: slow on a loaded machine.
  }, 240_000);
});
