import { parseCommandArgs } from "../args.ts";
import { loadClientConfig } from "../client-config.ts";
import { printJson, type Command } from "../context.ts";
import { createHttpClient } from "../http-client.ts";
import { planPut } from "../put-plan.ts";
import { readJsonInput } from "../read-input.ts";

const usage = `usage: crumbs put FILE [--idempotency-key KEY]

Write a breadcrumb from a JSON file (FILE "-" reads stdin) and print the result.
  no "id":   create it (POST), body {schema_name, title, tags?, context, llm_hints?, key?, ttl_seconds?}
  with "id": update it (PATCH) with If-Match from its "version"; title, tags, context, llm_hints are sent
So "crumbs get ID > f.json", edit f.json, "crumbs put f.json" is an optimistic update: a stale
version fails with version_mismatch instead of overwriting someone else's change.`;

export const putCommand: Command = {
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(
      args,
      { "idempotency-key": { type: "string" } },
      usage,
      { min: 1, max: 1 },
    );
    const plan = planPut(await readJsonInput(positionals[0] ?? "-", ctx.cwd, ctx.stdin));
    const http = createHttpClient(await loadClientConfig(ctx.env, ctx.cwd), ctx.fetch);
    const headers: Record<string, string> = {};
    if (plan.method === "PATCH") headers["if-match"] = plan.ifMatch;
    if (values["idempotency-key"]) headers["idempotency-key"] = values["idempotency-key"];
    const res = await http.json(plan.method, plan.path, { body: plan.body, headers });
    printJson(ctx, res.body);
  },
};
