import { renderSnapshot, type SnapshotOptions } from "../snapshot/snapshot.ts";
import { framePlaceholders } from "../snapshot/stitch.ts";
import { walkDocument } from "./dom/walker.ts";
import { currentProbe, probeFrame } from "./dom/frames.ts";
import type { SnapshotReply } from "../shared/content-messages.ts";
import { pruneRefs, resolveRef } from "./dom/refs.ts";
import { buildPcd } from "../perception/pcd.ts";

/**
 * One frame's snapshot. Without child frames the page is rendered right here, so the common case sends
 * text, not a tree, across the message channel; with frames the worker stitches and renders.
 */
export function takeSnapshot(options: SnapshotOptions, raw: boolean, docId: string): SnapshotReply {
  const started = performance.now();
  const root = options.root_ref ? resolveRef(options.root_ref) : null;
  const tree = walkDocument(document, root, {
    includeBoxes: options.include_boxes,
    probeFrame: (iframe) => probeFrame(iframe, docId),
  });
  pruneRefs();
  const frames = framePlaceholders(tree);
  const base = { url: location.href, title: document.title, frames, probe: currentProbe() };
  if (raw || frames.length > 0) return { ...base, tree, build_ms: performance.now() - started };
  const rendered = renderSnapshot(tree, options);
  const build_ms = performance.now() - started;
  if (!options.pcd) return { ...base, rendered, build_ms };
  // With child frames the worker builds it from the stitched tree instead, as it renders.
  const pcd = buildPcd(tree, { url: location.href, title: document.title });
  return { ...base, rendered, build_ms, pcd, pcd_ms: performance.now() - started - build_ms };
}
