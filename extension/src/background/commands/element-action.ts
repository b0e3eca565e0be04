import type { RefCandidate } from "@crumbs/schemas/action-result";
import { ActionError } from "../../shared/action-error.ts";
import { frameRef, parseRef } from "../../snapshot/stitch.ts";
import type { Command } from "../../shared/command.ts";
import { DEFAULT_TIMEOUT_MS, PageRefusal, sendToFrame } from "./content-client.ts";
import { NeedsConfirmation } from "../../shared/action-error.ts";
import { docIdFor } from "./doc-ids.ts";
import { resolveFramePath } from "./frame-path.ts";
import { trustedInputOn, whileActing } from "./trusted-input.ts";

const MAX_TIMEOUT_MS = 120_000;
const LOCAL_REF = /^e\d+$/;
/** How deep refs in a frame's answer are rewritten (details' form fields are at depth 3). */
const MAX_REF_DEPTH = 6;

/** wait_for and friends carry their own timeout; the channel waits a little longer than they do. */
function channelTimeout(params: Record<string, unknown>): number {
  const own = Number(params.timeout_ms ?? params.timeout ?? 0);
  return Number.isFinite(own) && own > 0 ? Math.min(own + 5_000, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
}

type Selector = { nameMode?: unknown; frame?: unknown } & Record<string, unknown>;

/** The role selectors of an action: its target and what wait_for waits for. */
function selectorsOf(params: Record<string, unknown>): Selector[] {
  const out: Selector[] = [];
  if (params.selector && typeof params.selector === "object") out.push(params.selector as Selector);
  const until = params.until as { selector?: unknown } | undefined;
  if (until?.selector && typeof until.selector === "object") out.push(until.selector as Selector);
  return out;
}

/** The RE2 bundle (shared/regex-engine.ts) goes into a frame only when an action there needs it. */
async function ensureRegexEngine(tabId: number, frameId: number): Promise<void> {
  try {
    await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: ["re2.js"] });
  } catch (e) {
    throw new ActionError("blocked_by_policy", `cannot run in this page or frame: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A frame's refs are `e<n>` in its content script and `f<frame>e<n>` to the agent. */
function prefixRefs(value: unknown, frameId: number, depth = 0): unknown {
  if (frameId === 0 || depth > MAX_REF_DEPTH || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => prefixRefs(v, frameId, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === "ref" && typeof v === "string" && LOCAL_REF.test(v) ? frameRef(frameId, v) : prefixRefs(v, frameId, depth + 1);
  }
  return out;
}

function prefixMessage(message: string, frameId: number): string {
  return frameId === 0 ? message : message.replace(/\b(e\d+)\b/g, (ref) => frameRef(frameId, ref));
}

/** What an element action answers: its data, and the new ref when the page had replaced the ref's element. */
export interface ElementActionResult {
  data: unknown;
  rebound?: string;
}

/** A refusal from a frame, its refs (in the message and candidates) as the agent knows them. */
function inFrame(e: PageRefusal, frameId: number): PageRefusal {
  if (frameId === 0) return e;
  const candidates = prefixRefs(e.candidates, frameId) as RefCandidate[] | undefined;
  return new PageRefusal(e.code, prefixMessage(e.message, frameId), candidates);
}

/**
 * Routes an element action to the frame its ref belongs to (`f7e3` -> frame 7, ref e3), or that its
 * selector's `frame` path leads to, and checks the frame still shows the document the ref came from: a
 * reload or navigation gives stale_ref, never an action on whatever now has the same number.
 */
export async function runElementAction(tab: chrome.tabs.Tab, cmd: Command): Promise<ElementActionResult> {
  const tabId = tab.id ?? 0;
  const params: Record<string, unknown> = { ...cmd.params };
  let frameId = 0;
  let expectDoc: string | undefined;
  if (params.ref !== undefined) {
    const ref = typeof params.ref === "string" ? parseRef(params.ref) : undefined;
    if (!ref) throw new ActionError("invalid_params", `ref ${JSON.stringify(params.ref)} is not a snapshot ref like e12 or f1e3`);
    frameId = ref.frameId;
    params.ref = ref.local;
    expectDoc = await docIdFor(tabId, frameId);
  }
  const selectors = selectorsOf(params);
  const path = selectors.map((s) => s.frame).find((f): f is string[] => Array.isArray(f));
  if (path && params.ref === undefined) {
    frameId = await resolveFramePath(tabId, path);
    if (params.selector) params.selector = { ...(params.selector as Selector), frame: undefined };
  }
  if (selectors.some((s) => s.nameMode === "regex")) await ensureRegexEngine(tabId, frameId);
  // The user turned on trusted input for this site (options page): the verbs that send input ask the
  // worker for it (trusted-input.ts); the rest ignore the flag.
  const trusted = await trustedInputOn(tab.url);
  try {
    const { data, rebound } = await whileActing(
      tabId,
      () =>
        sendToFrame(
          tabId,
          frameId,
          {
            kind: "action",
            name: cmd.type,
            params,
            expect_doc: expectDoc,
            ...(cmd.guard ? { guard: cmd.guard } : {}),
            ...(trusted ? { input: "trusted" as const } : {}),
          },
          channelTimeout(params),
        ),
      { trusted },
    );
    return { data: prefixRefs(data, frameId), ...(rebound ? { rebound: frameRef(frameId, rebound.ref) } : {}) };
  } catch (e) {
    // A ref into a frame that has since gone away is stale, not a policy problem. What the page itself
    // answered (the guard's policy checks, a confirmation, a missing element) is not about the frame.
    const unreachable = !(e instanceof NeedsConfirmation) && !(e instanceof PageRefusal);
    if (frameId !== 0 && params.ref !== undefined && unreachable && e instanceof ActionError && (e.code === "blocked_by_policy" || e.code === "not_found")) {
      throw new ActionError("stale_ref", `the frame of ref ${String(cmd.params.ref)} is gone; take a new snapshot`);
    }
    throw e instanceof PageRefusal ? inFrame(e, frameId) : e;
  }
}
