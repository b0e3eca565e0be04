import { z } from "zod";
import { parseCommandArgs } from "../args.ts";
import { loadClientConfig } from "../client-config.ts";
import { printJson, type Command } from "../context.ts";
import { CliError } from "../errors.ts";
import { createHttpClient } from "../http-client.ts";

const usage = `usage: crumbs history ID [--json]

Every version of a breadcrumb, oldest first, one line each:
  <seq> <event> v<version> <updated_at> <updated_by> <title>
--json prints the versions as a JSON array instead.`;

const historyItemSchema = z.looseObject({
  seq: z.coerce.number(),
  event: z.string(),
  version: z.number(),
  title: z.string(),
  updated_at: z.string().optional(),
  updated_by: z.string().optional(),
});
const pageSchema = z.object({ items: z.array(historyItemSchema), next_cursor: z.string().nullish() });

export const historyCommand: Command = {
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: "boolean" } }, usage, { min: 1, max: 1 });
    const http = createHttpClient(await loadClientConfig(ctx.env, ctx.cwd), ctx.fetch);
    const path = `/v1/breadcrumbs/${encodeURIComponent(positionals[0] ?? "")}/history`;
    const all: z.infer<typeof historyItemSchema>[] = [];
    let cursor: string | undefined;
    do {
      const res = await http.json("GET", path, { query: { cursor, limit: 500 } });
      const page = pageSchema.safeParse(res.body);
      if (!page.success) throw new CliError("invalid_response", `unexpected history page: ${page.error.issues[0]?.message}`);
      all.push(...page.data.items);
      cursor = page.data.next_cursor ?? undefined;
    } while (cursor);
    if (values.json) return printJson(ctx, all);
    for (const v of all) {
      ctx.out(`${v.seq} ${v.event} v${v.version} ${v.updated_at ?? "-"} ${v.updated_by ?? "-"} ${v.title.replace(/\s*[\r\n]+\s*/g, " ")}`);
    }
  },
};
