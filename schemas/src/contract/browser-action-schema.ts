import * as z from "./zod-mini.ts";
import { BROWSER_ACTIONS } from "./action-names.ts";
import { roleSelectorSchema } from "./role-selector-schema.ts";

export * from "./role-selector-schema.ts";

// The params of each browser action. The runner turns each schema into the parameters of an LLM
// tool (`browser_<action>`) with z.toJSONSchema, so every field carries a description for the model.
// Written with zod/mini (./zod-mini.ts): the extension bundles these schemas.

export { BROWSER_ACTIONS, READ_ACTIONS } from "./action-names.ts";
export const browserActionSchema = z.enum(BROWSER_ACTIONS);
export type BrowserAction = z.infer<typeof browserActionSchema>;

/** A string of `min`..`max` characters. */
const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
/** An integer in `min`..`max`. */
const integer = (min: number, max?: number) => z.number().check(z.int(), z.gte(min), ...(max === undefined ? [] : [z.lte(max)]));
/** What the model reads about a field or an action (the tool's JSON Schema `description`). */
const described = <T extends z.ZodMiniType>(schema: T, description: string): T => schema.check(z.describe(description));

export const refSchema = described(
  z.string().check(z.regex(/^[A-Za-z0-9_:-]{1,64}$/)),
  "Element ref from the latest snapshot, e.g. e12 (f1e3 inside an iframe)",
);

const target = {
  ref: z.optional(refSchema),
  selector: described(z.optional(roleSelectorSchema), "Used when there is no ref: a role, text or css selector"),
};
const needsTarget = (p: { ref?: string | undefined; selector?: unknown }) => p.ref !== undefined || p.selector !== undefined;
const targetMessage = { message: "give ref (from the latest snapshot) or selector" };

const elementAction = (description: string) => described(z.object(target).check(z.refine(needsTarget, targetMessage)), description);

export const snapshotParamsSchema = described(
  z.object({
    viewport_only: described(z.optional(z.boolean()), "Only what is in or near the viewport"),
    max_tokens: described(z.optional(integer(100, 50_000)), "Budget for the snapshot text (default 4000)"),
    root_ref: described(z.optional(refSchema), "Snapshot only the subtree of this element"),
    include_boxes: described(z.optional(z.boolean()), "Add element bounding boxes"),
    pcd: described(z.optional(z.boolean()), "Also answer the page capability descriptor (pcd) of the page"),
  }),
  "Take a text snapshot of the page; refs in it address elements in later actions",
);

export const fillParamsSchema = described(
  z
    .object({ ...target, value: described(z.string().check(z.maxLength(100_000)), "Text that replaces the field's value") })
    .check(z.refine(needsTarget, targetMessage)),
  "Replace the value of an input, textarea or contenteditable",
);

export const typeParamsSchema = described(
  z
    .object({
      ...target,
      value: described(z.string().check(z.maxLength(100_000)), "Text typed key by key at the cursor"),
      delay: described(z.optional(integer(0, 1000)), "Milliseconds between keys"),
    })
    .check(z.refine(needsTarget, targetMessage)),
  "Type text into an element as keystrokes",
);

export const pressParamsSchema = described(
  z.object({ ...target, key: described(text(1, 64), "Key or chord, e.g. Enter, Tab, Escape, Control+a") }),
  "Press a key on the element, or on the focused element when no target is given",
);

export const selectParamsSchema = described(
  z
    .object({ ...target, value: described(z.string().check(z.maxLength(1000)), "Option value or visible label to select") })
    .check(z.refine(needsTarget, targetMessage)),
  "Select an option in a select element",
);

export const scrollParamsSchema = described(
  z.object({
    direction: described(z.optional(z.enum(["up", "down", "left", "right"])), "Default down"),
    amount: described(z.optional(integer(1, 100_000)), "Pixels (default: one viewport)"),
    ref: described(z.optional(refSchema), "Scroll this element into view (or scroll inside it with direction)"),
    selector: target.selector,
  }),
  "Scroll the page or an element",
);

export const waitForParamsSchema = described(
  z.object({
    until: described(
      z
        .object({
          url: described(z.optional(text(1, 2000)), "Wait until the URL contains this"),
          selector: described(z.optional(roleSelectorSchema), "Wait until this element is visible"),
          text: described(z.optional(text(1, 500)), "Wait until this text is visible"),
          network_idle: described(z.optional(z.boolean()), "Wait until the network is idle"),
        })
        .check(z.refine((u) => Object.values(u).some((v) => v !== undefined && v !== false), { message: "give one condition" })),
      "What to wait for",
    ),
    timeout_ms: described(z.optional(integer(1, 120_000)), "Give up after this long (default 10000)"),
  }),
  "Wait for a URL change, an element, a text or network idle",
);

export const extractParamsSchema = described(
  z.object({
    ...target,
    fields: described(
      z.optional(z.array(text(1, 100)).check(z.maxLength(50))),
      "Fields to read from each repeated item, e.g. title, price, url",
    ),
    limit: described(z.optional(integer(1, 1000)), "At most this many items"),
  }),
  "Extract a repeated collection (list, table, results) as data, optionally scoped to an element",
);

export const getParamsSchema = described(
  z
    .object({
      ...target,
      what: described(z.enum(["text", "value", "attribute", "title", "url", "html"]), "What to read"),
      name: described(z.optional(text(1, 200)), "Attribute name when what is attribute"),
    })
    .check(
      z.refine((p) => p.what === "title" || p.what === "url" || needsTarget(p), targetMessage),
      z.refine((p) => p.what !== "attribute" || p.name !== undefined, { message: "what: attribute needs name" }),
    ),
  "Read text, value, an attribute or html of an element, or the page title or url",
);

export const isParamsSchema = described(
  z
    .object({ ...target, state: described(z.enum(["visible", "enabled", "checked", "editable"]), "State to test") })
    .check(z.refine(needsTarget, targetMessage)),
  "Test a state of an element",
);

/** At most this many answers from one `query`; the content script's index and query are bounded too. */
export const MAX_QUERY_RESULTS = 20;

export const queryParamsSchema = described(
  z.object({
    query: described(text(1, 200), "What to find, in words: 'the checkout button', 'email field', 'search box'"),
    limit: described(z.optional(integer(1, MAX_QUERY_RESULTS)), "How many answers, best first (default 5)"),
  }),
  "Search the page's elements by words; answers refs with role, name and why they match, best first. Read-only.",
);

export const detailsParamsSchema = described(
  z.object(target).check(z.refine(needsTarget, targetMessage)),
  "Details of one element: role, name, states, value (never of a secret field), nearby text, its form with its fields or its collection. Read-only.",
);

/** At most this many refs get a labelled box in one `capture_candidates`, and at most this many of them a crop. */
export const MAX_CANDIDATE_REFS = 10;
export const MAX_CANDIDATE_CROPS = 3;

export const captureCandidatesParamsSchema = described(
  z.object({
    refs: described(
      z.array(refSchema).check(z.minLength(1), z.maxLength(MAX_CANDIDATE_REFS)),
      "Refs of the elements to box and label (best candidate first), from the latest snapshot",
    ),
    crops: described(z.optional(integer(0, MAX_CANDIDATE_CROPS)), "Close-up crops of the first refs (default 3, at most 3)"),
  }),
  "A screenshot of the viewport with a labelled box per ref, and close-ups of the first ones: to tell candidates apart by how they look when roles and names do not. Read-only; at most one a second; refused while a password field is on screen.",
);

/** A bare host with an optional path ("example.com/docs"): what people type; it means https. */
const BARE_HOST = /^[\w-]+(\.[\w-]+)+(:\d+)?(\/.*)?$/;

/**
 * Agents may navigate to web pages only: an http(s) URL or a bare host. `file:` would read the
 * user's disk, and `javascript:`, `data:` and browser-internal schemes would run or show anything.
 */
export function isWebUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return BARE_HOST.test(raw);
  }
}

const urlString = described(
  text(1, 8000).check(z.refine(isWebUrl, { message: "only http and https URLs can be opened" })),
  "Absolute http(s) URL, e.g. https://example.com",
);
const tabId = described(integer(0), "Tab id from tab_list");

export const actionParamsSchemas = {
  snapshot: snapshotParamsSchema,
  click: elementAction("Click an element"),
  dblclick: elementAction("Double-click an element"),
  fill: fillParamsSchema,
  type: typeParamsSchema,
  press: pressParamsSchema,
  hover: elementAction("Hover over an element"),
  focus: elementAction("Focus an element"),
  check: elementAction("Check a checkbox or radio"),
  uncheck: elementAction("Uncheck a checkbox"),
  select: selectParamsSchema,
  scroll: scrollParamsSchema,
  submit: elementAction("Submit the form of an element"),
  wait_for: waitForParamsSchema,
  extract: extractParamsSchema,
  get: getParamsSchema,
  is: isParamsSchema,
  query: queryParamsSchema,
  details: detailsParamsSchema,
  capture_candidates: captureCandidatesParamsSchema,
  open: described(z.object({ url: urlString }), "Navigate the tab to a URL"),
  tab_new: described(
    z.object({ url: z.optional(urlString), active: described(z.optional(z.boolean()), "Switch to it (default true)") }),
    "Open a new tab",
  ),
  tab_list: described(z.object({}), "List the tabs the agent may control"),
  tab_switch: described(z.object({ tab_id: tabId }), "Make a tab the active one"),
  tab_close: described(z.object({ tab_id: tabId }), "Close a tab"),
} satisfies Record<BrowserAction, z.ZodMiniObject>;
export type ActionParams<A extends BrowserAction> = z.infer<(typeof actionParamsSchemas)[A]>;

export const riskSchema = z.enum(["low", "medium", "high"]);

export const browserActionContextSchema = z
  .looseObject({
    action: browserActionSchema,
    params: z._default(z.record(z.string(), z.unknown()), {}),
    target_extension: described(text(1, 200), "Extension id that must run the action"),
    tab_id: z.optional(integer(0)),
    request_id: text(1, 200),
    reply_to: z.optional(z.string().check(z.maxLength(200))),
    risk: z.optional(riskSchema),
  })
  .check(
    z.superRefine((ctx, issues) => {
      const schema = actionParamsSchemas[ctx.action];
      const parsed = schema.safeParse(ctx.params);
      if (parsed.success) return;
      for (const issue of parsed.error.issues) {
        issues.addIssue({ code: "custom", message: issue.message, path: ["params", ...issue.path] });
      }
    }),
  );
export type BrowserActionContext = z.infer<typeof browserActionContextSchema>;
