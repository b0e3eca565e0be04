import { configSchema } from "../shared/state/config.ts";
import { GRANTS_KEY, grants } from "../shared/state/control.ts";
import { RISK_KIND_LABELS, type RiskKind } from "../risk/risk.ts";
import { askWorker } from "../shared/panel-messages.ts";
import { STATUS_KEY, busStatus } from "../shared/state/status.ts";
import { TRUSTED_INPUT_KEY, trustedSitesSchema } from "../shared/trusted-input.ts";

// The options page: the connection settings in chrome.storage.local under the keys docs/extension.md
// gives them ("Settings": apiUrl, token, natsWsUrl, allowlist), validated before they are saved, and a
// connection test that runs in the worker with the values as typed.

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const fields = {
  apiUrl: $<HTMLInputElement>("apiUrl"),
  token: $<HTMLInputElement>("token"),
  natsWsUrl: $<HTMLInputElement>("natsWsUrl"),
  allowlist: $<HTMLTextAreaElement>("allowlist"),
};
const message = $("message");
const testResult = $("test-result");

function typed() {
  const allow = fields.allowlist.value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    apiUrl: fields.apiUrl.value,
    token: fields.token.value,
    natsWsUrl: fields.natsWsUrl.value,
    // An empty box means "no allowlist" (only the task's own site), not "no host at all".
    ...(allow.length ? { allowlist: allow } : {}),
  };
}

async function load(): Promise<void> {
  const s = await chrome.storage.local.get(["apiUrl", "token", "natsWsUrl", "allowlist"]);
  fields.apiUrl.value = typeof s.apiUrl === "string" ? s.apiUrl : "http://127.0.0.1:8081";
  fields.token.value = typeof s.token === "string" ? s.token : "";
  fields.natsWsUrl.value = typeof s.natsWsUrl === "string" ? s.natsWsUrl : "ws://127.0.0.1:9222";
  fields.allowlist.value = Array.isArray(s.allowlist) ? s.allowlist.join("\n") : "";
}

function show(text: string, ok: boolean): void {
  message.textContent = text;
  message.className = ok ? "ok" : "error";
}

$("save").addEventListener("click", async () => {
  const parsed = configSchema.safeParse(typed());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    show(`${String(issue?.path[0] ?? "setting")} ${issue?.message ?? "is invalid"}`, false);
    return;
  }
  const { allowlist, ...rest } = parsed.data;
  await chrome.storage.local.set(rest);
  if (allowlist) await chrome.storage.local.set({ allowlist });
  else await chrome.storage.local.remove("allowlist");
  show("Saved. The extension reconnects with these settings.", true);
});

$("test").addEventListener("click", async () => {
  testResult.textContent = "Testing…";
  const res = await askWorker({ kind: "crumbs:test-connection", settings: typed() });
  if (!res.ok || !res.test) {
    testResult.textContent = res.error ?? "the test did not run";
    return;
  }
  const line = (name: string, r: { ok: boolean; detail: string }) => {
    const li = document.createElement("li");
    li.className = r.ok ? "ok" : "error";
    li.dataset.part = name;
    li.textContent = `${name}: ${r.ok ? "OK" : "failed"} — ${r.detail}`;
    return li;
  };
  const list = document.createElement("ul");
  list.append(line("API", res.test.api), line("NATS", res.test.nats));
  testResult.replaceChildren(list);
});

async function renderStatus(): Promise<void> {
  const s = await busStatus.get();
  $("status").textContent = `NATS: ${s.nats?.state ?? "unknown"}${s.nats?.detail ? ` (${s.nats.detail})` : ""}; API: ${s.api?.state ?? "unknown"}`;
}
chrome.storage.onChanged.addListener((changes, area) => area === "local" && STATUS_KEY in changes && void renderStatus());

async function renderGrants(): Promise<void> {
  const list = await grants.get();
  const root = $("grants");
  if (!list.length) {
    const none = document.createElement("li");
    none.className = "none";
    none.textContent = "None.";
    root.replaceChildren(none);
    return;
  }
  root.replaceChildren(
    ...list.map((g) => {
      const li = document.createElement("li");
      li.className = "grant";
      li.dataset.site = g.site;
      li.dataset.kind = g.kind;
      li.textContent = `${g.site}: ${RISK_KIND_LABELS[g.kind as RiskKind] ?? g.kind} `;
      const revoke = document.createElement("button");
      revoke.className = "revoke";
      revoke.textContent = "Revoke";
      revoke.addEventListener("click", () => void askWorker({ kind: "crumbs:revoke-grant", site: g.site, grant_kind: g.kind }));
      li.append(revoke);
      return li;
    }),
  );
}
chrome.storage.onChanged.addListener((changes, area) => area === "local" && GRANTS_KEY in changes && void renderGrants());

// Trusted input (shared/trusted-input.ts): its own list and button, so it can be set before the connection is.
const trustedBox = $<HTMLTextAreaElement>("trustedInput");
async function loadTrusted(): Promise<void> {
  const parsed = trustedSitesSchema.safeParse((await chrome.storage.local.get(TRUSTED_INPUT_KEY))[TRUSTED_INPUT_KEY] ?? []);
  trustedBox.value = parsed.success ? parsed.data.join("\n") : "";
}
$("save-trusted").addEventListener("click", async () => {
  const parsed = trustedSitesSchema.safeParse(trustedBox.value.split(/[\s,]+/).filter(Boolean));
  const out = $("trusted-message");
  if (!parsed.success) {
    out.textContent = `a site ${parsed.error.issues[0]?.message ?? "is invalid"}`;
    out.className = "error";
    return;
  }
  if (parsed.data.length) await chrome.storage.local.set({ [TRUSTED_INPUT_KEY]: parsed.data });
  else await chrome.storage.local.remove(TRUSTED_INPUT_KEY);
  out.textContent = parsed.data.length
    ? `Saved. Agents' clicks and typing on ${parsed.data.join(", ")} now go through Chrome's debugger.`
    : "Saved. Synthetic input everywhere.";
  out.className = "ok";
});

void load();
void loadTrusted();
void renderStatus();
void renderGrants();
