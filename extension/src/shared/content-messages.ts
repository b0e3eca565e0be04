import * as z from "@crumbs/schemas/zod-mini";
import { refCandidateSchema } from "@crumbs/schemas/action-result";
import { pcdSchema } from "@crumbs/schemas/pcd";
import { snapshotOptionsSchema } from "../snapshot/snapshot.ts";
import { framePlaceholderSchema, virtualNodeSchema } from "../snapshot/virtual-node.ts";
import { actionErrorCodeSchema } from "./action-error.ts";
import { guardSchema } from "./guard.ts";

export const assessmentSchema = z.object({
  risk: z.enum(["low", "medium", "high"]),
  kind: z.optional(z.string()),
  sentence: z.string(),
  site: z.string(),
});

/** Every message the worker sends a content script (chrome.tabs.sendMessage, one frame at a time). */
export const contentRequestSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ping") }),
  z.object({
    kind: z.literal("snapshot"),
    options: snapshotOptionsSchema,
    /** Return the unrendered tree: the worker stitches frames and renders once for the whole page. */
    raw: z._default(z.boolean(), false),
  }),
  z.object({
    kind: z.literal("action"),
    name: z.string().check(z.minLength(1)),
    params: z._default(z.record(z.string(), z.unknown()), {}),
    /** The document the refs came from; another document means the page changed: stale_ref. */
    expect_doc: z.optional(z.string()),
    /** Write actions from the bus: the checks this frame runs right before acting (content/guard.ts). */
    guard: z.optional(guardSchema),
    /** Trusted input is on for this site: clicks, keys and text go through the worker's debugger (shared/trusted-input.ts). */
    input: z.optional(z.literal("trusted")),
  }),
  z.object({ kind: z.literal("clear-highlight") }),
  /** A role selector's `frame` step: which iframe of this document it names (answers a probe token). */
  z.object({ kind: z.literal("find-frame"), name: z.string().check(z.minLength(1), z.maxLength(200)) }),
  /** The probe token this frame last got from its parent. */
  z.object({ kind: z.literal("probe") }),
]);
export type ContentRequest = z.input<typeof contentRequestSchema>;

/** The ref an action named had been replaced by the page; the action ran on this one (content/dom/refs.ts). */
const reboundSchema = z.object({ from: z.string(), ref: z.string() });

export const contentResponseSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), doc_id: z.string(), data: z.unknown(), rebound: z.optional(reboundSchema) }),
  z.object({
    ok: z.literal(false),
    doc_id: z.string(),
    code: actionErrorCodeSchema,
    message: z.string(),
    /** Set when the action waits for the user's confirmation. */
    confirm: z.optional(assessmentSchema),
    /** A stale ref or an ambiguous selector: what could be meant now. */
    candidates: z.optional(z.array(refCandidateSchema)),
  }),
]);
export type ContentResponse = z.infer<typeof contentResponseSchema>;

export const renderedSchema = z.object({
  text: z.string(),
  refs: z.number().check(z.int()),
  tokens: z.number().check(z.int()),
  truncated: z.boolean(),
  tree: z.optional(z.array(virtualNodeSchema)),
});

export const snapshotReplySchema = z.object({
  url: z.string(),
  title: z.string(),
  /** Time the content script spent walking (and rendering, when it rendered), in ms. */
  build_ms: z.number(),
  rendered: z.optional(renderedSchema),
  tree: z.optional(virtualNodeSchema),
  /** Placeholders of this frame's iframes, for the worker to fill. */
  frames: z.array(framePlaceholderSchema),
  /** The token this frame last got from its parent: tells the worker which iframe element it is. */
  probe: z.optional(z.string()),
  /** The page capability descriptor, when asked for and built here (a frame without child frames). */
  pcd: z.optional(pcdSchema),
  /** Time spent building the pcd from the walk, ms. */
  pcd_ms: z.optional(z.number()),
});
export type SnapshotReply = z.infer<typeof snapshotReplySchema>;
