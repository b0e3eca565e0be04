import * as z from "./zod-mini.ts";
import { MAX_REGEX_LENGTH } from "./regex-limits.ts";

// How an action names an element without a ref: by role and accessible name (as the snapshot prints
// them), by visible text, by CSS, or by XPath. The role form is the one to prefer; it takes a name matched
// exactly, as a substring or as a regex (RE2 semantics, linear time, the same engine as the bus's
// selectors), element states, a landmark to look in, a frame path and an index. Written with
// zod/mini (./zod-mini.ts): the extension bundles it, and parses its own commands with the same
// role form (extension, content/dom/resolve-target.ts).

/** A string of `min`..`max` characters. */
const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
/** What the model reads about a field (the tool's JSON Schema `description`). */
const described = <T extends z.ZodMiniType>(schema: T, description: string): T => schema.check(z.describe(description));

export const NAME_MODES = ["exact", "includes", "regex"] as const;
export const SELECTOR_STATES = ["checked", "pressed", "disabled", "expanded", "selected"] as const;

/**
 * Landmarks a role selector may be scoped to: the ARIA roles and the HTML words people use for them
 * (`nav` is `navigation`, `header` is `banner`, `footer` is `contentinfo`, `aside` is `complementary`).
 */
export const LANDMARK_ALIASES = {
  main: "main",
  nav: "navigation",
  navigation: "navigation",
  header: "banner",
  banner: "banner",
  footer: "contentinfo",
  contentinfo: "contentinfo",
  aside: "complementary",
  complementary: "complementary",
  form: "form",
  search: "search",
  region: "region",
  dialog: "dialog",
} as const;
export type LandmarkWord = keyof typeof LANDMARK_ALIASES;
export const LANDMARK_WORDS = Object.keys(LANDMARK_ALIASES) as LandmarkWord[];

/** The longest XPath target; the extension also refuses shapes that search the page once per element. */
export const MAX_XPATH_LENGTH = 1000;

/** At most this many frames deep, as the snapshot stitches them. */
export const MAX_FRAME_PATH = 4;

export const selectorStatesSchema = described(
  z.strictObject({
    checked: z.optional(z.boolean()),
    pressed: z.optional(z.boolean()),
    disabled: z.optional(z.boolean()),
    expanded: z.optional(z.boolean()),
    selected: z.optional(z.boolean()),
  }),
  "Only elements in these states, e.g. {\"checked\": false}, {\"expanded\": true}",
);

export const withinSchema = described(
  z.strictObject({
    landmark: described(z.enum(LANDMARK_WORDS), "main, nav, header, footer, aside, form, search, region or dialog"),
    name: described(z.optional(text(1, 200)), "The landmark's accessible name (substring, case-insensitive), e.g. the form 'Sign in'"),
  }),
  "Look only inside this landmark",
);

export const roleTargetSchema = described(
  z
    .strictObject({
      role: described(text(1, 64), "ARIA role, e.g. button, link, textbox, checkbox"),
      // As long as the bus lets a regex be, whatever the mode, so a pattern over the limit never reaches a page.
      name: described(z.optional(z.string().check(z.maxLength(MAX_REGEX_LENGTH))), "Accessible name; how it matches is nameMode"),
      nameMode: described(
        z.optional(z.enum(NAME_MODES)),
        "includes (default: substring, case-insensitive, exact names first), exact (whole name, case kept) or regex (RE2 syntax, (?i) for case-insensitive)",
      ),
      exact: described(z.optional(z.boolean()), "Same as nameMode exact"),
      states: z.optional(selectorStatesSchema),
      within: z.optional(withinSchema),
      frame: described(
        z.optional(z.array(text(1, 200)).check(z.minLength(1), z.maxLength(MAX_FRAME_PATH))),
        "Iframes to enter first, outermost first, each by its title or name attribute",
      ),
      nth: described(z.optional(z.number().check(z.int(), z.gte(0))), "0-based index among the matches"),
    })
    .check(
      z.refine((s) => s.nameMode === undefined || s.name !== undefined, { message: "nameMode needs name", path: ["name"] }),
      z.refine((s) => !(s.exact === true && s.nameMode !== undefined && s.nameMode !== "exact"), {
        message: "exact: true contradicts nameMode",
        path: ["exact"],
      }),
    ),
  "Element by role and accessible name",
);
export type RoleTarget = z.infer<typeof roleTargetSchema>;

export const roleSelectorSchema = z.union([
  roleTargetSchema,
  described(z.strictObject({ text: described(text(1, 500), "Visible text of the element") }), "Element by visible text"),
  described(z.strictObject({ css: described(text(1, 1000), "CSS selector (last resort)") }), "Element by CSS"),
  described(
    z.strictObject({ xpath: described(text(1, MAX_XPATH_LENGTH), "XPath 1.0 that selects the element, e.g. /html/body/form/button (no shadow DOM)") }),
    "Element by XPath (as recorded scripts name elements)",
  ),
]);
export type RoleSelector = z.infer<typeof roleSelectorSchema>;

/** How a role selector's name matches, `exact: true` being the older spelling of `nameMode: "exact"`. */
export function nameModeOf(s: Pick<RoleTarget, "nameMode" | "exact">): (typeof NAME_MODES)[number] {
  return s.nameMode ?? (s.exact ? "exact" : "includes");
}
