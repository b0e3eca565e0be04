import type { HistoryItem } from "@crumbs/agent-sdk";
import { parseCommandArgs } from "../args.ts";
import { apiClient } from "../client-config.ts";
import { printJson, type Command } from "../context.ts";

const usage = `usage: crumbs history ID [--json]

Every version of a breadcrumb, oldest first, one line each:
  <seq> <event> v<version> <updated_at> <updated_by> <title>
--json prints the versions as a JSON array instead.`;

export const historyCommand: Command = {
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: "boolean" } }, usage, { min: 1, max: 1 });
    const http = await apiClient(ctx);
    const all: HistoryItem[] = [];
    let cursor: string | undefined;
    do {
      const page = await http.history(positionals[0] ?? "", { cursor, limit: 500 });
      all.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    if (values.json) return printJson(ctx, all);
    for (const v of all) {
      ctx.out(`${v.seq} ${v.event} v${v.version} ${v.updated_at} ${v.updated_by} ${v.title.replace(/\s*[\r\n]+\s*/g, " ")}`);
    }
  },
};
