import * as z from "@crumbs/schemas/zod-mini";

/**
 * A content script, in the middle of an action, asks the worker to move the real pointer to a point of
 * the tab's viewport (CSS px of the top frame): the browser's own mouse move, which gives CSS `:hover`
 * that synthetic events cannot. The worker answers `{ok}`; without it the content script falls back to
 * synthetic events.
 */
export const POINTER_MESSAGE = "crumbs:pointer-move";

export const pointerRequestSchema = z.object({
  kind: z.literal(POINTER_MESSAGE),
  x: z.number().check(z.gte(0), z.lte(100_000)),
  y: z.number().check(z.gte(0), z.lte(100_000)),
});
export type PointerRequest = z.infer<typeof pointerRequestSchema>;

export interface PointerResponse {
  ok: boolean;
  error?: string;
}
