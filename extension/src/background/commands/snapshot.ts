import { ActionError } from "../../shared/action-error.ts";
import { snapshotReplySchema, type SnapshotReply } from "../../shared/content-messages.ts";
import { renderSnapshot, snapshotOptionsSchema, type SnapshotOptions } from "../../snapshot/snapshot.ts";
import { framePlaceholders, matchFrames, parseRef, prefixRefs, stitchFrames } from "../../snapshot/stitch.ts";
import type { VirtualNode } from "../../snapshot/virtual-node.ts";
import type { Pcd } from "@crumbs/schemas/pcd";
import { buildPcd } from "../../perception/pcd.ts";
import { sendToFrame } from "./content-client.ts";
import { type DocIds, mergeDocIds } from "./doc-ids.ts";

/** Nested frames deeper than this are shown as placeholders. */
const MAX_FRAME_DEPTH = 4;
const FRAME_TIMEOUT_MS = 5_000;

interface FrameSnap {
  frameId: number;
  reply: SnapshotReply;
  docId: string;
}

/**
 * Fills the placeholders of `tree` (a frame's own subtree) with the subtrees of its child frames: every
 * child frame of `parentFrameId` is asked for its raw tree, matched to a placeholder by probe token (or
 * URL), its refs prefixed f<frameId>, and its own child frames filled the same way.
 */
async function fillFrames(
  tabId: number,
  parentFrameId: number,
  tree: VirtualNode,
  allFrames: chrome.webNavigation.GetAllFrameResultDetails[],
  opts: SnapshotOptions,
  docs: DocIds,
  depth: number,
): Promise<VirtualNode> {
  const placeholders = framePlaceholders(tree);
  if (placeholders.length === 0) return tree;
  if (depth > MAX_FRAME_DEPTH) return stitchFrames(tree, new Map(placeholders.map((p) => [p.token, "nested too deep"])));
  const kids = allFrames.filter((f) => f.parentFrameId === parentFrameId);
  const snaps = (
    await Promise.all(
      kids.map(async (f): Promise<FrameSnap | undefined> => {
        try {
          const { data, docId } = await sendToFrame(
            tabId,
            f.frameId,
            { kind: "snapshot", options: { ...opts, root_ref: undefined, pcd: false }, raw: true },
            FRAME_TIMEOUT_MS,
          );
          return { frameId: f.frameId, reply: snapshotReplySchema.parse(data), docId };
        } catch {
          return undefined;
        }
      }),
    )
  ).filter((x): x is FrameSnap => x !== undefined);
  const byFrame = new Map(snaps.map((s) => [s.frameId, s]));
  const matched = matchFrames(
    placeholders,
    snaps.map((s) => ({ frameId: s.frameId, probe: s.reply.probe, url: s.reply.url })),
  );
  const subtrees = new Map<string, VirtualNode | string>();
  for (const p of placeholders) {
    const frameId = matched.get(p.token);
    const snap = frameId === undefined ? undefined : byFrame.get(frameId);
    if (!snap || frameId === undefined) {
      subtrees.set(p.token, "no content script answered for this frame");
      continue;
    }
    docs[String(frameId)] = snap.docId;
    const own = prefixRefs(snap.reply.tree ?? { role: "generic" }, frameId);
    subtrees.set(p.token, await fillFrames(tabId, frameId, own, allFrames, opts, docs, depth + 1));
  }
  return stitchFrames(tree, subtrees);
}

export interface SnapshotData {
  text: string;
  refs: number;
  tokens: number;
  truncated: boolean;
  url: string;
  title: string;
  tree?: VirtualNode[];
  /** Time spent in the top frame's content script, ms (the part measured by the bench). */
  build_ms: number;
  /** The page capability descriptor, when asked for (`pcd: true`), and the time it took from the walk. */
  pcd?: Pcd;
  pcd_ms?: number;
}

/**
 * The page's snapshot: the content script of the frame that holds the root renders it when it has no
 * child frames; otherwise each frame's own content script gives its subtree (refs prefixed f<frameId>),
 * same-origin or not (each frame's elements are then acted on in their own realm), and the worker
 * stitches and renders once, so the budget covers the whole page.
 */
export async function runSnapshot(tab: chrome.tabs.Tab, params: unknown): Promise<SnapshotData> {
  const parsed = snapshotOptionsSchema.safeParse(params);
  if (!parsed.success) throw new ActionError("invalid_params", `snapshot options: ${parsed.error.message}`);
  const opts = parsed.data;
  const tabId = tab.id ?? 0;
  let frameId = 0;
  let local = opts;
  if (opts.root_ref) {
    const ref = parseRef(opts.root_ref);
    if (!ref) throw new ActionError("invalid_params", `root_ref ${opts.root_ref} is not a snapshot ref`);
    frameId = ref.frameId;
    local = { ...opts, root_ref: ref.local };
  }
  const docs: DocIds = {};
  const { data, docId } = await sendToFrame(tabId, frameId, { kind: "snapshot", options: local, raw: frameId !== 0 });
  docs[String(frameId)] = docId;
  const reply: SnapshotReply = snapshotReplySchema.parse(data);
  let rendered = reply.rendered;
  let pcd = reply.pcd;
  let pcdMs = reply.pcd_ms;
  if (!rendered) {
    const own = prefixRefs(reply.tree ?? { role: "generic" }, frameId);
    const allFrames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
    const tree = await fillFrames(tabId, frameId, own, allFrames, opts, docs, 1);
    rendered = renderSnapshot(tree, opts);
    if (opts.pcd) {
      // The same stitched tree the text was rendered from, so the pcd's refs are the snapshot's.
      const started = performance.now();
      pcd = buildPcd(tree, { url: tab.url ?? reply.url, title: tab.title ?? reply.title });
      pcdMs = performance.now() - started;
    }
  }
  await mergeDocIds(tabId, docs);
  const result: SnapshotData = {
    text: rendered.text,
    refs: rendered.refs,
    tokens: rendered.tokens,
    truncated: rendered.truncated,
    url: frameId === 0 ? reply.url : (tab.url ?? reply.url),
    title: frameId === 0 ? reply.title : (tab.title ?? reply.title),
    build_ms: Math.round(reply.build_ms * 100) / 100,
  };
  if (rendered.tree) result.tree = rendered.tree;
  if (pcd) {
    result.pcd = pcd;
    result.pcd_ms = Math.round((pcdMs ?? 0) * 100) / 100;
  }
  return result;
}
