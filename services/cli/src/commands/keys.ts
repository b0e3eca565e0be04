import type { ApiKey } from "@crumbs/agent-sdk";
import { SCOPES, type Scope } from "@crumbs/schemas";
import { parseCommandArgs, runSubcommand } from "../args.ts";
import { apiClient } from "../client-config.ts";
import { printJson, type CliContext, type Command } from "../context.ts";
import { UsageError } from "../errors.ts";
import { natsCreds, natsInit } from "./keys-nats.ts";

const usage = `usage: crumbs keys create --owner OWNER --scopes ${SCOPES.join(",")} [--expires 30d] [--name NAME] [--json]
       crumbs keys list [--owner OWNER] [--json]
       crumbs keys revoke ID
       crumbs keys nats-init --out DIR
       crumbs keys nats-creds [--kind agent|extension --extension-id ID] [--ttl SECONDS]

API keys (admin scope; CRUMBS_URL, CRUMBS_TOKEN). create prints the token ONCE: only its sha256 is stored.
The admin of owner "default" (CRUMBS_TOKEN) manages every owner's keys; another owner's admin key only its own,
and never grants a scope it lacks. --expires: 30d, 12h, 90m, 2w or seconds; without it the key does not expire.
nats-init writes a locked-down NATS setup into DIR (account.seed once, auth.conf and runner.creds from it); see SECURITY.md.
nats-creds prints a .creds file of this token's owner's own NATS account, valid until the key expires or is revoked (subscribe scope).`;

const line = (k: ApiKey) =>
  `${k.id} ${k.owner} ${k.scopes.join(",")} ${k.name ?? "-"} expires=${k.expires_at ?? "never"}${k.revoked_at ? ` revoked=${k.revoked_at}` : ""}`;

async function create(args: string[], ctx: CliContext) {
  const { values } = parseCommandArgs(
    args,
    { owner: { type: "string" }, scopes: { type: "string" }, expires: { type: "string" }, name: { type: "string" }, json: { type: "boolean" } },
    usage,
  );
  if (!values.owner || !values.scopes) throw new UsageError(`--owner and --scopes are required`, usage);
  // Sent as typed: the API names a scope it does not know (details.issues).
  const scopes = values.scopes.split(",").map((s) => s.trim()).filter(Boolean) as Scope[];
  const key = await (await apiClient(ctx)).createKey({
    owner: values.owner,
    scopes,
    ...(values.name ? { name: values.name } : {}),
    ...(values.expires ? { expires_in: values.expires } : {}),
  });
  if (values.json) return printJson(ctx, key);
  ctx.out(key.token);
  ctx.err(`key ${line(key)}\nthe token above is shown once; store it now (CRUMBS_TOKEN=...)`);
}

async function list(args: string[], ctx: CliContext) {
  const { values } = parseCommandArgs(args, { owner: { type: "string" }, json: { type: "boolean" } }, usage);
  const { items: keys } = await (await apiClient(ctx)).listKeys(values.owner === undefined ? {} : { owner: values.owner });
  if (values.json) return printJson(ctx, keys);
  for (const k of keys) ctx.out(line(k));
  if (!keys.length) ctx.err(`no keys${values.owner ? ` of owner ${values.owner}` : ""}: \`crumbs keys create\` makes one`);
}

async function revoke(args: string[], ctx: CliContext) {
  const { positionals } = parseCommandArgs(args, {}, usage, { min: 1, max: 1 });
  const id = positionals[0] ?? "";
  await (await apiClient(ctx)).revokeKey(id);
  ctx.err(`revoked ${id}`);
}

const subcommands: Record<string, (args: string[], ctx: CliContext) => Promise<void>> = {
  create,
  list,
  revoke,
  "nats-init": natsInit(usage),
  "nats-creds": (args, ctx) => natsCreds(args, ctx, usage),
};

export const keysCommand: Command = {
  usage,
  run: (args, ctx) => runSubcommand(subcommands, args, ctx, usage),
};
