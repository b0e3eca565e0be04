import { z } from "zod";

// The params of each browser action. The runner turns each schema into the parameters of an LLM
// tool (`browser_<action>`) with z.toJSONSchema, so every field carries a description for the model.

export const BROWSER_ACTIONS = [
  "snapshot",
  "click",
  "dblclick",
  "fill",
  "type",
  "press",
  "hover",
  "focus",
  "check",
  "uncheck",
  "select",
  "scroll",
  "submit",
  "wait_for",
  "extract",
  "get",
  "is",
  "open",
  "tab_new",
  "tab_list",
  "tab_switch",
  "tab_close",
] as const;
export const browserActionSchema = z.enum(BROWSER_ACTIONS);
export type BrowserAction = z.infer<typeof browserActionSchema>;

export const refSchema = z
  .string()
  .regex(/^[A-Za-z0-9_:-]{1,64}$/)
  .describe("Element ref from the latest snapshot, e.g. e12 (f1e3 inside an iframe)");

export const roleSelectorSchema = z.union([
  z
    .strictObject({
      role: z.string().min(1).max(64).describe("ARIA role, e.g. button, link, textbox, checkbox"),
      name: z.string().max(500).optional().describe("Accessible name (substring, case-insensitive unless exact)"),
      exact: z.boolean().optional().describe("Match the accessible name exactly"),
      nth: z.number().int().min(0).optional().describe("0-based index among the matches"),
    })
    .describe("Element by role and accessible name"),
  z.strictObject({ text: z.string().min(1).max(500).describe("Visible text of the element") }).describe("Element by visible text"),
  z.strictObject({ css: z.string().min(1).max(1000).describe("CSS selector (last resort)") }).describe("Element by CSS"),
]);
export type RoleSelector = z.infer<typeof roleSelectorSchema>;

const target = {
  ref: refSchema.optional(),
  selector: roleSelectorSchema.optional().describe("Used when there is no ref: a role, text or css selector"),
};
const needsTarget = (p: { ref?: string | undefined; selector?: unknown }) => p.ref !== undefined || p.selector !== undefined;
const targetMessage = { message: "give ref (from the latest snapshot) or selector" };

const elementAction = (description: string) => z.object(target).refine(needsTarget, targetMessage).describe(description);

export const snapshotParamsSchema = z
  .object({
    viewport_only: z.boolean().optional().describe("Only what is in or near the viewport"),
    max_tokens: z.number().int().min(100).max(50_000).optional().describe("Budget for the snapshot text (default 4000)"),
    root_ref: refSchema.optional().describe("Snapshot only the subtree of this element"),
    include_boxes: z.boolean().optional().describe("Add element bounding boxes"),
  })
  .describe("Take a text snapshot of the page; refs in it address elements in later actions");

export const fillParamsSchema = z
  .object({ ...target, value: z.string().max(100_000).describe("Text that replaces the field's value") })
  .refine(needsTarget, targetMessage)
  .describe("Replace the value of an input, textarea or contenteditable");

export const typeParamsSchema = z
  .object({
    ...target,
    value: z.string().max(100_000).describe("Text typed key by key at the cursor"),
    delay: z.number().int().min(0).max(1000).optional().describe("Milliseconds between keys"),
  })
  .refine(needsTarget, targetMessage)
  .describe("Type text into an element as keystrokes");

export const pressParamsSchema = z
  .object({
    ...target,
    key: z.string().min(1).max(64).describe("Key or chord, e.g. Enter, Tab, Escape, Control+a"),
  })
  .describe("Press a key on the element, or on the focused element when no target is given");

export const selectParamsSchema = z
  .object({ ...target, value: z.string().max(1000).describe("Option value or visible label to select") })
  .refine(needsTarget, targetMessage)
  .describe("Select an option in a select element");

export const scrollParamsSchema = z
  .object({
    direction: z.enum(["up", "down", "left", "right"]).optional().describe("Default down"),
    amount: z.number().int().min(1).max(100_000).optional().describe("Pixels (default: one viewport)"),
    ref: refSchema.optional().describe("Scroll this element into view (or scroll inside it with direction)"),
    selector: target.selector,
  })
  .describe("Scroll the page or an element");

export const waitForParamsSchema = z
  .object({
    until: z
      .object({
        url: z.string().min(1).max(2000).optional().describe("Wait until the URL contains this"),
        selector: roleSelectorSchema.optional().describe("Wait until this element is visible"),
        text: z.string().min(1).max(500).optional().describe("Wait until this text is visible"),
        network_idle: z.boolean().optional().describe("Wait until the network is idle"),
      })
      .refine((u) => Object.values(u).some((v) => v !== undefined && v !== false), { message: "give one condition" })
      .describe("What to wait for"),
    timeout_ms: z.number().int().min(1).max(120_000).optional().describe("Give up after this long (default 10000)"),
  })
  .describe("Wait for a URL change, an element, a text or network idle");

export const extractParamsSchema = z
  .object({
    ...target,
    fields: z.array(z.string().min(1).max(100)).max(50).optional().describe("Fields to read from each repeated item, e.g. title, price, url"),
    limit: z.number().int().min(1).max(1000).optional().describe("At most this many items"),
  })
  .describe("Extract a repeated collection (list, table, results) as data, optionally scoped to an element");

export const getParamsSchema = z
  .object({
    ...target,
    what: z.enum(["text", "value", "attribute", "title", "url", "html"]).describe("What to read"),
    name: z.string().min(1).max(200).optional().describe("Attribute name when what is attribute"),
  })
  .refine((p) => p.what === "title" || p.what === "url" || needsTarget(p), targetMessage)
  .refine((p) => p.what !== "attribute" || p.name !== undefined, { message: "what: attribute needs name" })
  .describe("Read text, value, an attribute or html of an element, or the page title or url");

export const isParamsSchema = z
  .object({ ...target, state: z.enum(["visible", "enabled", "checked", "editable"]).describe("State to test") })
  .refine(needsTarget, targetMessage)
  .describe("Test a state of an element");

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

const urlString = z
  .string()
  .min(1)
  .max(8000)
  .refine(isWebUrl, { message: "only http and https URLs can be opened" })
  .describe("Absolute http(s) URL, e.g. https://example.com");
const tabId = z.number().int().min(0).describe("Tab id from tab_list");

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
  open: z.object({ url: urlString }).describe("Navigate the tab to a URL"),
  tab_new: z
    .object({ url: urlString.optional(), active: z.boolean().optional().describe("Switch to it (default true)") })
    .describe("Open a new tab"),
  tab_list: z.object({}).describe("List the tabs the agent may control"),
  tab_switch: z.object({ tab_id: tabId }).describe("Make a tab the active one"),
  tab_close: z.object({ tab_id: tabId }).describe("Close a tab"),
} satisfies Record<BrowserAction, z.ZodObject>;
export type ActionParams<A extends BrowserAction> = z.infer<(typeof actionParamsSchemas)[A]>;

export const riskSchema = z.enum(["low", "medium", "high"]);

export const browserActionContextSchema = z
  .looseObject({
    action: browserActionSchema,
    params: z.record(z.string(), z.unknown()).default({}),
    target_extension: z.string().min(1).max(200).describe("Extension id that must run the action"),
    tab_id: z.number().int().min(0).optional(),
    request_id: z.string().min(1).max(200),
    reply_to: z.string().max(200).optional(),
    risk: riskSchema.optional(),
  })
  .superRefine((ctx, issues) => {
    const schema = actionParamsSchemas[ctx.action];
    const parsed = schema.safeParse(ctx.params);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      issues.addIssue({ code: "custom", message: issue.message, path: ["params", ...issue.path] });
    }
  });
export type BrowserActionContext = z.infer<typeof browserActionContextSchema>;
