import { ActionError, NeedsConfirmation, isActionError } from "../shared/action-error.ts";
import { getAction, registeredActions } from "./actions/registry.ts";
import "./actions/index.ts";
import { currentProbe, findFrame, listenForProbes } from "./dom/frames.ts";
import { contentRequestSchema, type ContentResponse } from "../shared/content-messages.ts";
import { isGuarded, runGuard } from "./guard.ts";
import { clearHighlight } from "./highlight.ts";
import { takeSnapshot } from "./snapshot.ts";
import { beginRequest, reboundInRequest } from "./dom/refs.ts";

declare global {
  var __crumbsContent: { docId: string } | undefined;
}

async function handle(raw: unknown, docId: string): Promise<unknown> {
  const parsed = contentRequestSchema.safeParse(raw);
  if (!parsed.success) throw new ActionError("invalid_params", `bad message: ${parsed.error.message}`);
  const req = parsed.data;
  if (req.kind === "ping") return { actions: registeredActions() };
  if (req.kind === "snapshot") return takeSnapshot(req.options, req.raw, docId);
  if (req.kind === "clear-highlight") return clearHighlight();
  if (req.kind === "find-frame") return findFrame(req.name, docId);
  if (req.kind === "probe") return { probe: currentProbe() ?? null };
  if (req.expect_doc && req.expect_doc !== docId) {
    throw new ActionError("stale_ref", "the page was reloaded or navigated since the snapshot; take a new snapshot");
  }
  const handler = getAction(req.name);
  if (!handler) throw new ActionError("invalid_params", `unknown action ${req.name}`);
  clearHighlight();
  // A healed ref is healed once per request: the guard assesses the element the verb then acts on.
  beginRequest();
  if (req.guard && isGuarded(req.name)) runGuard(req.name, req.params, req.guard);
  return handler(req.params, { docId, input: req.input ?? "synthetic" });
}

function install(): void {
  // The worker re-injects this file into frames that were loaded before the extension; once is enough.
  if (globalThis.__crumbsContent) return;
  const docId = crypto.randomUUID();
  globalThis.__crumbsContent = { docId };
  listenForProbes();
  chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
    handle(message, docId).then(
      (data) => {
        const rebound = reboundInRequest();
        sendResponse({ ok: true, doc_id: docId, data, ...(rebound ? { rebound } : {}) } satisfies ContentResponse);
      },
      (e: unknown) => {
        const err: ContentResponse = isActionError(e)
          ? {
              ok: false,
              doc_id: docId,
              code: e.code,
              message: e.message,
              ...(e instanceof NeedsConfirmation ? { confirm: e.assessment } : {}),
              ...(e.candidates?.length ? { candidates: e.candidates } : {}),
            }
          : { ok: false, doc_id: docId, code: "not_actionable", message: e instanceof Error ? e.message : String(e) };
        sendResponse(err);
      },
    );
    return true;
  });
}

install();
