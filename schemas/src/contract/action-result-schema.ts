import * as z from "./zod-mini.ts";

// browser.action.result.v1, written with zod/mini (./zod-mini.ts): the extension bundles it.

export const ACTION_ERROR_CODES = [
  "stale_ref",
  "not_found",
  "not_actionable",
  "cross_origin",
  "blocked_by_policy",
  "timeout",
  "invalid_params",
  /** The user stopped the task: the action was dropped before it ran. */
  "cancelled",
] as const;
export const actionErrorCodeSchema = z.enum(ACTION_ERROR_CODES);
export type ActionErrorCode = z.infer<typeof actionErrorCodeSchema>;

export const observationSchema = z.looseObject({
  url: z.string(),
  title: z.string(),
  url_changed: z.boolean(),
});

const id = z.string().check(z.minLength(1), z.maxLength(200));
const elementRef = z.string().check(z.regex(/^[A-Za-z0-9_:-]{1,64}$/));

/** At most this many candidates come back with a `stale_ref`. */
export const MAX_REF_CANDIDATES = 8;

/** An element the page offers now in place of a ref that went stale: act on one by its ref. */
export const refCandidateSchema = z.object({
  ref: elementRef,
  role: z.string().check(z.maxLength(64)),
  name: z.string().check(z.maxLength(200)),
  /** A password, one-time-code or payment field: agents may not type into it. */
  secret: z.optional(z.boolean()),
});
export type RefCandidate = z.infer<typeof refCandidateSchema>;

export const actionResultContextSchema = z
  .looseObject({
    request_id: id,
    action_id: id.check(z.describe("Id of the browser.action.v1 breadcrumb")),
    status: z.enum(["ok", "error"]),
    code: z.optional(actionErrorCodeSchema),
    message: z.optional(z.string().check(z.maxLength(10_000))),
    data: z.optional(z.unknown()),
    /**
     * The ref's element had been replaced by the page (a re-render) and the action ran on the one
     * element with the same role, name and place; `ref` is that element's ref now.
     */
    rebound: z.optional(z.boolean()),
    ref: z.optional(elementRef),
    /** With `stale_ref` or an ambiguous selector: the elements that could be meant now, to pick one by ref without a new snapshot. */
    candidates: z.optional(z.array(refCandidateSchema).check(z.maxLength(MAX_REF_CANDIDATES))),
    observation: observationSchema,
  })
  .check(
    z.refine((r) => r.status === "ok" || r.code !== undefined, { message: "an error result needs a code", path: ["code"] }),
    z.refine((r) => !r.rebound || r.ref !== undefined, { message: "a rebound result names the new ref", path: ["ref"] }),
  );
export type ActionResultContext = z.infer<typeof actionResultContextSchema>;

/**
 * The data of a `capture_candidates` result. Images are JPEG data URLs inside the result itself: the model that
 * asked gets them in its tool answer with no second fetch, and vision APIs take data URLs as they are. Together
 * they stay under MAX_CAPTURE_CHARS, so the result fits the API's 1 MiB body limit with room for the rest.
 * Boxes are in CSS pixels of the viewport; the frame image is that viewport scaled by `scale`.
 */
export const MAX_CAPTURE_CHARS = 512_000;
const image = z.object({
  data_url: z.string().check(z.regex(/^data:image\/jpeg;base64,/), z.maxLength(MAX_CAPTURE_CHARS)),
  width: z.number().check(z.int()),
  height: z.number().check(z.int()),
});
const box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export const candidatesCaptureSchema = z.object({
  frame: z.extend(image, { scale: z.number() }),
  viewport: z.object({ width: z.number(), height: z.number() }),
  boxes: z.array(
    z.extend(box, {
      ref: elementRef,
      /** The label drawn on the image. */
      label: z.string().check(z.maxLength(16)),
      role: z.string().check(z.maxLength(64)),
      name: z.string().check(z.maxLength(200)),
      /** The box's colour as #rrggbb. */
      color: z.string(),
    }),
  ),
  crops: z.array(z.extend(image, { ref: elementRef, region: box })),
  /** Refs that are on the page but outside the viewport: not boxed (scroll them into view first). */
  off_screen: z.array(elementRef),
  /** Refs the page no longer has, or in an iframe (not boxed). */
  skipped: z.array(z.object({ ref: elementRef, reason: z.string() })),
  chars: z.number().check(z.int()),
});
export type CandidatesCapture = z.infer<typeof candidatesCaptureSchema>;
