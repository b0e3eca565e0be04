import type { ParkedOutboxPage } from "@crumbs/agent-sdk";
import { parseCommandArgs, runSubcommand } from "../args.ts";
import { apiClient } from "../client-config.ts";
import { printJson, type CliContext, type Command } from "../context.ts";
import { UsageError } from "../errors.ts";

const usage = `usage: crumbs outbox list [--limit N] [--json]
       crumbs outbox retry <seq> | --all

The relay's dead letters (admin of owner "default"; CRUMBS_URL, CRUMBS_TOKEN). A row the relay can never
publish (its event does not fit the NATS server's max_payload even without the breadcrumb, an invalid
subject) is parked with the later rows of its owner, so that owner's order holds; other owners keep flowing.
list shows each parked row: seq, owner, subject, parked time and reason.
retry moves a row (and the rows of its owner parked behind it) or every row back to the outbox, where the
relay publishes it next; fix the cause first (e.g. raise max_payload), or it parks again.`;

async function list(args: string[], ctx: CliContext) {
  const { values } = parseCommandArgs(args, { limit: { type: "string" }, json: { type: "boolean" } }, usage);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1_000)) {
    throw new UsageError(`--limit must be an integer from 1 to 1000`, usage);
  }
  const http = await apiClient(ctx);
  const rows: ParkedOutboxPage["items"] = [];
  let after: number | undefined;
  for (;;) {
    const page = await http.listParkedOutbox({ limit: limit ?? 500, ...(after === undefined ? {} : { after }) });
    rows.push(...page.items);
    if (limit !== undefined || page.next_after === null) break;
    after = page.next_after;
  }
  if (values.json) return printJson(ctx, rows);
  for (const r of rows) ctx.out(`${r.seq} ${r.owner} ${r.subject} parked=${r.parked_at} ${r.reason}`);
  ctx.err(`${rows.length} parked`);
}

async function retry(args: string[], ctx: CliContext) {
  const { values, positionals } = parseCommandArgs(args, { all: { type: "boolean" } }, usage, { min: 0, max: 1 });
  const seqText = positionals[0];
  if (Boolean(values.all) === (seqText !== undefined)) throw new UsageError(`give one seq or --all`, usage);
  const seq = Number(seqText);
  if (seqText !== undefined && !(Number.isSafeInteger(seq) && seq >= 1)) throw new UsageError(`seq must be a positive integer`, usage);
  const { retried } = await (await apiClient(ctx)).retryParkedOutbox(values.all ? { all: true } : { seq });
  ctx.out(retried.join("\n"));
  ctx.err(`${retried.length} re-queued`);
}

const subcommands: Record<string, (args: string[], ctx: CliContext) => Promise<void>> = { list, retry };

export const outboxCommand: Command = {
  usage,
  run: (args, ctx) => runSubcommand(subcommands, args, ctx, usage),
};
