import type { Breadcrumb } from "@crumbs/agent-sdk";
import { parseCommandArgs } from "../args.ts";
import { apiClient } from "../client-config.ts";
import { printJson, type Command } from "../context.ts";
import { UsageError } from "../errors.ts";
import { parseSelectorArg } from "../selector-arg.ts";

const usage = `usage: crumbs list [--schema NAME] [--tag TAG]... [--any-tag TAG]... [--key KEY] [--title TEXT]
                   [--selector JSON] [--limit N] [--cursor CURSOR | --all] [--json]

Breadcrumbs, most recently updated first, one row each: ID, SCHEMA, VERSION, UPDATED, TITLE.
--schema NAME     only this schema_name
--tag TAG         has every --tag given; --any-tag TAG: has at least one of them
--key KEY         the one with this key; --title TEXT: title contains TEXT (any case)
--selector JSON   a selector (schemas/README.md, "Selectors"), e.g. '{"context_match":...}'
--limit N         rows per page, 1-500 (default 50); when there are more, the next page's
                  --cursor is printed on stderr. --all follows every page.
--json            {"items": [...], "next_cursor": ...} as the API sends it`;

/** Aligned columns, one row per breadcrumb, titles on one line. */
function formatTable(items: readonly Breadcrumb[]): string[] {
  const rows = items.map((b) => [b.id, b.schema_name, `v${b.version}`, b.updated_at, b.title.replace(/\s*[\r\n]+\s*/g, " ")]);
  const all = [["ID", "SCHEMA", "VERSION", "UPDATED", "TITLE"], ...rows];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join("  ").trimEnd());
}

export const listCommand: Command = {
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(
      args,
      {
        schema: { type: "string" },
        tag: { type: "string", multiple: true },
        "any-tag": { type: "string", multiple: true },
        key: { type: "string" },
        title: { type: "string" },
        selector: { type: "string" },
        limit: { type: "string" },
        cursor: { type: "string" },
        all: { type: "boolean" },
        json: { type: "boolean" },
      },
      usage,
    );
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 500)) throw new UsageError("--limit must be an integer from 1 to 500", usage);
    if (values.all && values.cursor !== undefined) throw new UsageError("use --cursor or --all, not both", usage);
    const http = await apiClient(ctx);
    const query = {
      schema_name: values.schema,
      tag: values.tag,
      any_tag: values["any-tag"],
      key: values.key,
      title: values.title,
      selector: parseSelectorArg(values.selector),
      limit,
    };
    const items: Breadcrumb[] = [];
    let cursor = values.cursor;
    do {
      const page = await http.list({ ...query, cursor });
      items.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (values.all && cursor);

    if (values.json) printJson(ctx, { items, next_cursor: cursor ?? null });
    else if (items.length) for (const line of formatTable(items)) ctx.out(line);
    if (!items.length) ctx.err("no breadcrumbs match");
    else if (cursor) ctx.err(`more: add --cursor ${cursor} for the next page (or --all)`);
  },
};
