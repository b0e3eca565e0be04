import { parseCommandArgs } from "../args.ts";
import { apiClient } from "../client-config.ts";
import { printJson, type Command } from "../context.ts";
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
    const http = await apiClient(ctx);
    const idempotencyKey = values["idempotency-key"] || undefined;
    const written =
      plan.method === "PATCH"
        ? await http.patch(plan.id, plan.body, { ifMatch: plan.ifMatch, idempotencyKey })
        : await http.create(plan.body, { idempotencyKey });
    printJson(ctx, written);
  },
};
