import { z } from "zod";

/** Layout box in CSS pixels, relative to the frame's viewport. */
export const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const statesSchema = z.object({
  checked: z.union([z.boolean(), z.literal("mixed")]).optional(),
  disabled: z.boolean().optional(),
  expanded: z.boolean().optional(),
  selected: z.boolean().optional(),
  pressed: z.union([z.boolean(), z.literal("mixed")]).optional(),
  level: z.number().int().optional(),
  required: z.boolean().optional(),
  covered: z.boolean().optional(),
  /** A password, one-time-code or payment field: its value is never shown and agents may not type into it. */
  secret: z.boolean().optional(),
});

/**
 * Where a frame's subtree goes: the frame's own content script produces it and the worker stitches it in
 * place of this placeholder. `token` was posted into the frame's window, so the frame that reports it is
 * the one this element shows; `src` is the fallback match for a frame that missed the post.
 */
export const framePlaceholderSchema = z.object({
  token: z.string(),
  src: z.string().optional(),
});

/**
 * The JSON form of a snapshot node. The content script builds it, the worker stitches frames into it,
 * and budget + render turn it into text. Plain data only, so every pure step can be unit tested.
 */
export const virtualNodeSchema = z.object({
  /** ARIA role, or "text" for a text run, "generic" for a role-less container, "iframe" for a frame. */
  role: z.string(),
  name: z.string().optional(),
  ref: z.string().optional(),
  tag: z.string().optional(),
  /** Text of a "text" node. */
  text: z.string().optional(),
  value: z.string().optional(),
  href: z.string().optional(),
  states: statesSchema.optional(),
  box: boxSchema.optional(),
  /** Distance in px from the viewport (0 = intersects it); drives the budget's priorities. */
  vp: z.number().optional(),
  frame: framePlaceholderSchema.optional(),
  /** Set by the budget when repeated children were cut: how many there were and how many are kept. */
  summary: z.object({ total: z.number().int(), shown: z.number().int() }).optional(),
  get children() {
    return z.array(virtualNodeSchema).optional();
  },
});

export type VirtualNode = z.infer<typeof virtualNodeSchema>;
export type Box = z.infer<typeof boxSchema>;
export type States = z.infer<typeof statesSchema>;
