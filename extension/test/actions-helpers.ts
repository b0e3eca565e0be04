import { expect } from "vitest";
import type { Page } from "playwright-core";
import type { ExecuteResult } from "../src/shared/command.ts";
import type { Harness } from "./harness.ts";

// Small helpers shared by the actions-*.test.ts files.

/** Every result a test saw, so a test can assert a secret never appeared in any output. */
export const seen: unknown[] = [];

export async function run(h: Harness, type: string, params: Record<string, unknown> = {}): Promise<ExecuteResult> {
  const result = await h.execute({ type, params });
  seen.push(result);
  return result;
}

/** Runs a command that must succeed and returns its data. */
export async function ok<T = Record<string, unknown>>(h: Harness, type: string, params: Record<string, unknown> = {}): Promise<T> {
  const result = await run(h, type, params);
  expect(result, `${type} ${JSON.stringify(params)} -> ${result.error}`).toMatchObject({ success: true });
  return result.data as T;
}

/** Runs a command that must fail with `code`; returns the error message. */
export async function fails(h: Harness, type: string, params: Record<string, unknown>, code: string): Promise<string> {
  const result = await run(h, type, params);
  expect(result, `${type} ${JSON.stringify(params)} -> ${result.error}`).toMatchObject({ success: false, code });
  return result.error ?? "";
}

export async function snapshot(h: Harness): Promise<string> {
  const data = await ok<{ text: string }>(h, "snapshot");
  return data.text;
}

/** The ref on the first snapshot line containing `needle`, e.g. refIn(text, 'button "Save"'). */
export function refIn(text: string, needle: string | RegExp): string {
  const line = text.split("\n").find((l) => (typeof needle === "string" ? l.includes(needle) : needle.test(l)) && /\[ref=/.test(l));
  const ref = line?.match(/\[ref=([a-z0-9]+)\]/)?.[1];
  if (!ref) throw new Error(`no ref for ${String(needle)} in snapshot:\n${text}`);
  return ref;
}

type PageGlobals = Record<string, unknown>;

/** A global the fixture page keeps (its own event log, for instance). */
export function pageVar<T>(page: Page, name: string): Promise<T> {
  return page.evaluate((n) => (window as unknown as PageGlobals)[n], name) as Promise<T>;
}

export function pageSet(page: Page, name: string, value: unknown): Promise<void> {
  return page.evaluate(([n, v]) => {
    (window as unknown as PageGlobals)[n as string] = v;
  }, [name, value] as const);
}

/** Calls a function the fixture page defines on window. */
export function pageCall<T>(page: Page, name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([n, a]) => ((window as unknown as PageGlobals)[n as string] as (...x: unknown[]) => unknown)(...(a as unknown[])),
    [name, args] as const,
  ) as Promise<T>;
}

/** The fixture pages' event log entries. */
export interface LogEntry {
  type: string;
  detail: string;
}
