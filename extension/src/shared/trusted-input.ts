import * as z from "@crumbs/schemas/zod-mini";
import { hostMatches, hostOf } from "../risk/allowlist.ts";

// Trusted input: on the sites the user lists in the options page (storage key `trustedInput`, host
// patterns like the allowlist's), element actions act through chrome.debugger's DevTools protocol
// (Input.dispatchMouseEvent, Input.dispatchKeyEvent, Input.insertText), so the page gets events with
// `isTrusted` true. Pages that ignore synthetic events (some login forms, editors, anti-bot checks)
// answer only those. Everywhere else actions stay synthetic DOM events, which need no debugger.
//
// The content script resolves the target and its point, then asks the worker for each input step;
// only the worker may call chrome.debugger, and only for a tab that is running an action in trusted mode.

/** chrome.storage.local key: host patterns (`*.example.com`, `example.com`, `*`) with trusted input on. */
export const TRUSTED_INPUT_KEY = "trustedInput";
export const trustedSitesSchema = z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(253)));

/** Is trusted input on for this page's host? */
export function trustedFor(url: string | undefined, patterns: readonly string[]): boolean {
  const host = hostOf(url);
  return host !== undefined && patterns.some((p) => hostMatches(p, host));
}

/** What the content script tells the user when a page did not react to synthetic input. */
export function trustedInputHint(host: string): string {
  return `the page may accept only real (trusted) input: turn on trusted input for ${host || "this site"} in the crumbs options page`;
}

export const TRUSTED_INPUT_MESSAGE = "crumbs:trusted-input";

/**
 * A global of the content scripts' world: how many trusted input steps this frame's content script has in
 * flight. The mask (background/tasks/mask-page.ts, injected into the same world) blocks the user's own
 * clicks and keys, which are trusted events like the debugger's: while this is above zero the trusted
 * events are the agent's, and it lets them through.
 */
export const TRUSTED_INPUT_GLOBAL = "__crumbsTrustedInput";

const coord = z.number().check(z.gte(0), z.lte(100_000));
export const MODIFIER_NAMES = ["Alt", "Control", "Meta", "Shift"] as const;
const keySchema = z.object({
  key: z.string().check(z.minLength(1), z.maxLength(32)),
  code: z.string().check(z.maxLength(32)),
  keyCode: z.number().check(z.int(), z.gte(0), z.lte(255)),
  text: z.optional(z.string().check(z.maxLength(4))),
});
export type TrustedKey = z.infer<typeof keySchema>;

/** One input step, in CSS px of the tab's top frame (the DevTools protocol's viewport coordinates). */
export const trustedInputRequestSchema = z.object({
  kind: z.literal(TRUSTED_INPUT_MESSAGE),
  op: z.discriminatedUnion("type", [
    /** Press and release the left button `count` times (2: a double click, each press with its click count). */
    z.object({ type: z.literal("click"), x: coord, y: coord, count: z.number().check(z.int(), z.gte(1), z.lte(2)) }),
    /** A key with modifiers held: keyDown (with its text, if any) and keyUp. */
    z.object({ type: z.literal("key"), key: keySchema, modifiers: z.array(z.enum(MODIFIER_NAMES)).check(z.maxLength(4)) }),
    /** Text as an IME commit at the caret (replaces the selection): beforeinput/input with isTrusted. */
    z.object({ type: z.literal("text"), text: z.string().check(z.maxLength(100_000)) }),
  ]),
});
export type TrustedInputRequest = z.infer<typeof trustedInputRequestSchema>;
export type TrustedOp = TrustedInputRequest["op"];

export interface TrustedInputResponse {
  ok: boolean;
  error?: string;
  /** The user pressed Stop while the action ran: the debugger is detached and the action must end. */
  stopped?: boolean;
}
