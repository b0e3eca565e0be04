import * as z from "./zod-mini.ts";

// The page capability descriptor, `context.pcd` of browser.page.context.v1: what a page lets a user do,
// compact. Where the snapshot is the page line by line, the pcd is its summary for deciding what to do:
// the landmarks, whether someone is logged in, the main actions, the forms with their fields and the
// repeated collections (a product grid is one template and a count, not 32 cards). The extension builds
// it from the same walk as the snapshot, so its refs are the snapshot's refs and an agent acts on them
// directly. Bounded by PCD_LIMITS and de-duplicated. Written with zod/mini (./zod-mini.ts): the
// extension bundles it (`@crumbs/schemas/pcd`).

/** The caps: a pcd stays a few hundred tokens on any page; what is cut is counted in `truncated`. */
export const PCD_LIMITS = {
  landmarks: 12,
  actions: 30,
  /** Fields of all forms together. */
  fields: 20,
  forms: 8,
  collections: 20,
  /** Parts of one collection's item template, and sample item labels. */
  templateParts: 6,
  samples: 3,
  /** Characters of any label. */
  label: 120,
} as const;

const ref = z.string().check(z.regex(/^[A-Za-z0-9_:-]{1,64}$/));
const label = z.string().check(z.maxLength(PCD_LIMITS.label));
const count = z.number().check(z.int(), z.gte(0));

export const PCD_ACTION_KINDS = ["navigate", "submit", "toggle", "expand", "choose", "auth", "search"] as const;
export const PCD_FORM_PURPOSES = ["login", "signup", "search", "newsletter", "checkout", "contact", "other"] as const;
export const LOGIN_STATES = ["unknown", "in", "out"] as const;

export const pcdLandmarkSchema = z.object({
  /** ARIA landmark role: banner, navigation, main, complementary, contentinfo, search, form, region. */
  role: z.string().check(z.maxLength(32)),
  label: z.optional(label),
});

export const pcdActionSchema = z.object({
  ref,
  label,
  role: z.string().check(z.maxLength(32)),
  kind: z.optional(z.enum(PCD_ACTION_KINDS)),
  /** The landmark it is in, as `role` or `role "label"`. */
  landmark: z.optional(z.string().check(z.maxLength(PCD_LIMITS.label + 40))),
  /** Visible without scrolling when the page was captured. */
  aboveFold: z.optional(z.boolean()),
  /** How many actions with this role, label and landmark the page has (shown once, `ref` of the first). */
  count: z.optional(count),
});

export const pcdFieldSchema = z.object({
  ref,
  label,
  /** Input type (text, email, password, search, checkbox, ...) or select, textarea, combobox. */
  type: z.string().check(z.maxLength(32)),
  required: z.optional(z.boolean()),
  /** A password, one-time-code or payment field: agents may not type into it; its value is never shown. */
  secret: z.optional(z.boolean()),
});

export const pcdFormSchema = z.object({
  id: z.string().check(z.maxLength(16)),
  label: z.optional(label),
  purpose: z.optional(z.enum(PCD_FORM_PURPOSES)),
  landmark: z.optional(z.string().check(z.maxLength(PCD_LIMITS.label + 40))),
  fields: z.array(pcdFieldSchema),
  /** The button that sends it. */
  submit: z.optional(z.object({ ref, label })),
});

export const pcdCollectionSchema = z.object({
  id: z.string().check(z.maxLength(16)),
  label: z.optional(label),
  /** Role of the repeated items: listitem, row, article, ... */
  itemRole: z.optional(z.string().check(z.maxLength(32))),
  count,
  /** One item's parts as role and label, refs of the first item: every item has the same. */
  template: z.array(z.object({ role: z.string().check(z.maxLength(32)), label: z.optional(label), ref: z.optional(ref) })),
  /** Labels of the first items. */
  samples: z.optional(z.array(label)),
});

export const pcdSchema = z.object({
  url: z.string().check(z.maxLength(8000)),
  origin: z.string().check(z.maxLength(2000)),
  title: z.string().check(z.maxLength(1000)),
  loginState: z.enum(LOGIN_STATES),
  landmarks: z.array(pcdLandmarkSchema).check(z.maxLength(PCD_LIMITS.landmarks)),
  actions: z.array(pcdActionSchema).check(z.maxLength(PCD_LIMITS.actions)),
  forms: z.array(pcdFormSchema).check(z.maxLength(PCD_LIMITS.forms)),
  collections: z.array(pcdCollectionSchema).check(z.maxLength(PCD_LIMITS.collections)),
  /** What the caps left out, by kind. Absent: nothing was cut. */
  truncated: z.optional(
    z.object({
      landmarks: z.optional(count),
      actions: z.optional(count),
      fields: z.optional(count),
      forms: z.optional(count),
      collections: z.optional(count),
    }),
  ),
});
export type Pcd = z.infer<typeof pcdSchema>;
export type PcdAction = z.infer<typeof pcdActionSchema>;
export type PcdForm = z.infer<typeof pcdFormSchema>;
export type PcdField = z.infer<typeof pcdFieldSchema>;
export type PcdCollection = z.infer<typeof pcdCollectionSchema>;
export type PcdLandmark = z.infer<typeof pcdLandmarkSchema>;
