import { parseCommandArgs } from "../args.ts";
import { apiClient } from "../client-config.ts";
import type { Command } from "../context.ts";
import { UsageError } from "../errors.ts";

const usage = `usage: crumbs delete ID [--if-match VERSION]

Delete a breadcrumb. Its history stays, with a "deleted" event carrying the last version.
--if-match VERSION  delete only if it is still at VERSION; otherwise version_mismatch and the
                    current version, and nothing is deleted (someone changed it since you read it)`;

export const deleteCommand: Command = {
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, { "if-match": { type: "string" } }, usage, { min: 1, max: 1 });
    const version = values["if-match"]?.replace(/^W\//, "").replace(/"/g, "");
    if (version !== undefined && !/^\d{1,9}$/.test(version)) throw new UsageError("--if-match takes a version number, e.g. --if-match 3", usage);
    const id = positionals[0] ?? "";
    await (await apiClient(ctx)).delete(id, version === undefined ? {} : { ifMatch: Number(version) });
    ctx.out(`deleted ${id}`);
  },
};
