import { z } from "zod";
import { parseCommandArgs, runSubcommand } from "../args.ts";
import { loadClientConfig } from "../client-config.ts";
import { printJson, type CliContext, type Command } from "../context.ts";
import { CliError, UsageError } from "../errors.ts";
import { createHttpClient } from "../http-client.ts";

const usage = `usage: crumbs outbox list [--limit N] [--json]
       crumbs outbox retry <seq> | --all

The relay's dead letters (admin of owner "default"; CRUMBS_URL, CRUMBS_TOKEN). A row the relay can never
publish (its event does not fit the NATS server's max_payload even without the breadcrumb, an invalid
subject) is parked with the later rows of its owner, so that owner's order holds; other owners keep flowing.
list shows each parked row: seq, owner, subject, parked time and reason.
retry moves a row (and the rows of its owner parked behind it) or every row back to the outbox, where the
relay publishes it next; fix the cause first (e.g. raise max_payload), or it parks again.`;

const parkedSchema = z.looseObject({
  seq: z.number(),
  owner: z.string(),
  subject: z.string(),
  msg_id: z.string(),
  reason: z.string(),
  parked_at: z.string(),
});
const pageSchema = z.object({ items: z.array(parkedSchema), next_after: z.number().nullable() });

async function client(ctx: CliContext) {
  return createHttpClient(await loadClientConfig(ctx.env, ctx.cwd), ctx.fetch);
}

async function list(args: string[], ctx: CliContext) {
  const { values } = parseCommandArgs(args, { limit: { type: "string" }, json: { type: "boolean" } }, usage);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1_000)) {
    throw new UsageError(`--limit must be an integer from 1 to 1000`, usage);
  }
  const http = await client(ctx);
  const rows: z.infer<typeof parkedSchema>[] = [];
  let after: number | undefined;
  for (;;) {
    const res = await http.json("GET", "/v1/outbox/parked", { query: { limit: String(limit ?? 500), after: after === undefined ? undefined : String(after) } });
    const page = pageSchema.safeParse(res.body);
    if (!page.success) throw new CliError("invalid_response", "unexpected parked outbox page");
    rows.push(...page.data.items);
    if (limit !== undefined || page.data.next_after === null) break;
    after = page.data.next_after;
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
  const res = await (await client(ctx)).json("POST", "/v1/outbox/retry", { body: values.all ? { all: true } : { seq } });
  const body = z.object({ retried: z.array(z.number()) }).safeParse(res.body);
  if (!body.success) throw new CliError("invalid_response", "unexpected retry answer");
  ctx.out(body.data.retried.join("\n"));
  ctx.err(`${body.data.retried.length} re-queued`);
}

const subcommands: Record<string, (args: string[], ctx: CliContext) => Promise<void>> = { list, retry };

export const outboxCommand: Command = {
  usage,
  run: (args, ctx) => runSubcommand(subcommands, args, ctx, usage),
};
