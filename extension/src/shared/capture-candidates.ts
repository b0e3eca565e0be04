import * as z from "@crumbs/schemas/zod-mini";

/** What a frame's content script answers to `capture_candidates`: CSS px of its viewport. */
export const candidateRectsSchema = z.object({
  viewport: z.object({ width: z.number(), height: z.number() }),
  boxes: z.array(
    z.object({ ref: z.string(), role: z.string(), name: z.string(), x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  ),
  off_screen: z.array(z.string()),
  skipped: z.array(z.object({ ref: z.string(), reason: z.string() })),
  /** A password, one-time-code or payment field is rendered in this frame's viewport. */
  secret_on_screen: z.boolean(),
});
export type CandidateRects = z.infer<typeof candidateRectsSchema>;
