import { parseCommandArgs } from "../args.ts";
import { apiClient } from "../client-config.ts";
import { printJson, type Command } from "../context.ts";
import { UsageError } from "../errors.ts";

const usage = `usage: crumbs get ID [--view llm]

Print one breadcrumb as JSON. --view llm prints its llm_hints view instead.`;

export const getCommand: Command = {
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, { view: { type: "string" } }, usage, { min: 1, max: 1 });
    if (values.view !== undefined && values.view !== "llm") throw new UsageError(`--view accepts only "llm"`, usage);
    const http = await apiClient(ctx);
    const id = positionals[0] ?? "";
    printJson(ctx, values.view === "llm" ? await http.getLlmView(id) : await http.get(id));
  },
};
