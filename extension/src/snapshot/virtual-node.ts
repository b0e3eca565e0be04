import * as z from "@crumbs/schemas/zod-mini";

/** Layout box in CSS pixels, relative to the frame's viewport. */
export const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const statesSchema = z.object({
  checked: z.optional(z.union([z.boolean(), z.literal("mixed")])),
  disabled: z.optional(z.boolean()),
  expanded: z.optional(z.boolean()),
  selected: z.optional(z.boolean()),
  pressed: z.optional(z.union([z.boolean(), z.literal("mixed")])),
  level: z.optional(z.number().check(z.int())),
  required: z.optional(z.boolean()),
  covered: z.optional(z.boolean()),
  /** Transparent until the pointer is over it (or focus is in it): an action hovers it first. */
  shownOn: z.optional(z.enum(["hover", "focus"])),
  /** A password, one-time-code or payment field: its value is never shown and agents may not type into it. */
  secret: z.optional(z.boolean()),
});

/**
 * Where a frame's subtree goes: the frame's own content script produces it and the worker stitches it in
 * place of this placeholder. `token` was posted into the frame's window, so the frame that reports it is
 * the one this element shows; `src` is the fallback match for a frame that missed the post.
 */
export const framePlaceholderSchema = z.object({
  token: z.string(),
  src: z.optional(z.string()),
});

/**
 * The JSON form of a snapshot node. The content script builds it, the worker stitches frames into it,
 * and budget + render turn it into text. Plain data only, so every pure step can be unit tested.
 */
export const virtualNodeSchema = z.object({
  /** ARIA role, or "text" for a text run, "generic" for a role-less container, "iframe" for a frame. */
  role: z.string(),
  name: z.optional(z.string()),
  ref: z.optional(z.string()),
  tag: z.optional(z.string()),
  /** Text of a "text" node. */
  text: z.optional(z.string()),
  value: z.optional(z.string()),
  /** An input's, button's or text area's type (email, password, submit, textarea, ...): not printed, read by the pcd and query. */
  type: z.optional(z.string()),
  href: z.optional(z.string()),
  states: z.optional(statesSchema),
  box: z.optional(boxSchema),
  /** Distance in px from the viewport (0 = intersects it); drives the budget's priorities. */
  vp: z.optional(z.number()),
  frame: z.optional(framePlaceholderSchema),
  /** A pane that scrolls (its ref scrolls it): when the budget cuts lines in it, it says how many and where. */
  scrollable: z.optional(z.boolean()),
  /** Set by the budget when repeated children were cut: how many there were and how many are kept. */
  summary: z.optional(z.object({ total: z.number().check(z.int()), shown: z.number().check(z.int()) })),
  get children() {
    return z.optional(z.array(virtualNodeSchema));
  },
});

export type VirtualNode = z.infer<typeof virtualNodeSchema>;
export type Box = z.infer<typeof boxSchema>;
export type States = z.infer<typeof statesSchema>;
