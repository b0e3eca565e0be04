import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { registerAction } from "./registry.ts";
import { sleep } from "../dom/actionability.ts";
import { isVisible } from "../dom/element-state.ts";
import { timeout } from "./params.ts";
import { describeSelector, matchSelector, roleSelectorSchema, type RoleSelector } from "../dom/resolve-target.ts";
import { checkUrlPattern, urlMatches } from "../../shared/url-match.ts";
import { networkQuietFor } from "../dom/network-idle.ts";

const untilSchema = z.optional(
  z.object({
    url: z.optional(z.string()),
    selector: z.optional(z.union([roleSelectorSchema, z.string().check(z.minLength(1))])),
    text: z.optional(z.string().check(z.minLength(1))),
    network_idle: z.optional(z.boolean()),
  }),
);

const waitForParams = z.object({ until: untilSchema, timeout_ms: timeout });

export const DEFAULT_WAIT_MS = 10_000;
const NETWORK_QUIET_MS = 500;

// wait_for in the page: selector, text, network idle, a same-document URL change (pushState), or a plain delay.
// A URL change through a full navigation replaces this script, so the worker handles `until.url` (background/commands/tabs.ts).
registerAction("wait_for", waitForParams, async (params) => {
  const until = params.until ?? {};
  const timeout = params.timeout_ms ?? DEFAULT_WAIT_MS;
  const started = performance.now();
  const conditions: [string, () => boolean][] = [];
  if (until.url !== undefined) {
    const bad = checkUrlPattern(until.url);
    if (bad) throw new ActionError("invalid_params", bad);
    conditions.push([`url matching "${until.url}"`, () => urlMatches(location.href, until.url!)]);
  }
  if (until.selector !== undefined) {
    const sel = until.selector;
    matchSelector(sel); // throws invalid_params now for a bad CSS selector
    conditions.push([`${describeSelector(sel)} visible`, () => matchSelector(sel as RoleSelector | string).some(isVisible)]);
  }
  if (until.text !== undefined) {
    const text = until.text;
    conditions.push([`text "${text}" visible`, () => matchSelector({ text }).some(isVisible)]);
  }
  if (until.network_idle) {
    conditions.push([`network idle for ${NETWORK_QUIET_MS} ms`, () => networkQuietFor(started) >= NETWORK_QUIET_MS]);
  }
  if (conditions.length === 0) {
    if (params.timeout_ms === undefined) throw new ActionError("invalid_params", "give `until` ({url|selector|text|network_idle}) or `timeout_ms` to pause");
    await sleep(timeout);
    return { waited_ms: Math.round(performance.now() - started), condition: "timeout" };
  }
  const deadline = started + timeout;
  while (true) {
    const pending = conditions.filter(([, ok]) => !ok());
    if (pending.length === 0) {
      return { waited_ms: Math.round(performance.now() - started), url: location.href, title: document.title };
    }
    if (performance.now() >= deadline) {
      throw new ActionError("timeout", `waited ${timeout} ms for ${pending.map(([what]) => what).join(" and ")}`);
    }
    await sleep(50);
  }
});
