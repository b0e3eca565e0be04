import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { agentBodyFromFile, applyAgent } from "./agent-defs.ts";
import { CrumbsHttp } from "@crumbs/agent-sdk";
import { PAGE_ASSISTANT_FILE } from "@crumbs/agent-definitions";

export type DefaultAgent =
  | { state: "off" }
  | {
      state: "created" | "unchanged" | "kept";
      agentId: string;
      version: number;
      model: string;
      /** Undefined when the model has an endpoint; else the runner's sentence naming the variable to set. */
      missingModel: string | undefined;
      file: string;
    };

/**
 * `crumbs start` installs the page assistant (agents/definitions/page-assistant.json), so the first
 * chat has someone to answer it. Never over a user's edit: an agent with its agent_id that differs
 * from the file is kept as it is ("kept"; `crumbs agents apply FILE` replaces it on purpose).
 * CRUMBS_DEFAULT_AGENT=off installs nothing.
 */
export async function installDefaultAgent(opts: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  apiUrl: string;
  token: string;
  endpoints: Parameters<typeof import("@crumbs/runner").routeModel>[1];
}): Promise<DefaultAgent> {
  if (opts.env.CRUMBS_DEFAULT_AGENT === "off") return { state: "off" };
  const { routeModel } = await import("@crumbs/runner");
  const body = agentBodyFromFile(JSON.parse(await readFile(PAGE_ASSISTANT_FILE, "utf8")));
  const http = new CrumbsHttp({ url: opts.apiUrl, token: opts.token });
  const { outcome, crumb, version } = await applyAgent(http, body, { keepEdited: true });
  const model = String(crumb.context.model ?? body.context.model ?? "");
  const route = routeModel(model, opts.endpoints);
  return {
    state: outcome === "updated" ? "kept" : outcome,
    agentId: body.context.agent_id,
    version,
    model,
    missingModel: route.ok ? undefined : route.reason,
    file: relative(opts.cwd, PAGE_ASSISTANT_FILE).startsWith("..") ? PAGE_ASSISTANT_FILE : relative(opts.cwd, PAGE_ASSISTANT_FILE),
  };
}
