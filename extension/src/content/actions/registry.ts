import type * as z from "@crumbs/schemas/zod-mini";
import { parseParams } from "./params.ts";

// The content script's verbs. Each verb is one file in this folder that registers its name, the
// schema of its params and what it does, at import time (index.ts imports them all); the content
// script's dispatcher (../index.ts) runs every action message through here. A new verb is a new
// file plus one line in index.ts; what it does to the page it builds from ../dom/.

/** What a content-side action handler gets besides its params. */
export interface ActionContext {
  /** Identity of this document; changes on navigation, so refs of an older page never match. */
  docId: string;
  /** "trusted": the user turned on trusted input for this site; verbs that send input ask the worker for it. */
  input: "synthetic" | "trusted";
}

export type ActionHandler = (params: unknown, ctx: ActionContext) => Promise<unknown>;

interface Verb {
  params: z.ZodMiniType;
  run: ActionHandler;
}

const verbs = new Map<string, Verb>();

/** Registers a verb: `params` are parsed (invalid_params on failure) before `run` sees them. */
export function registerAction<S extends z.ZodMiniType>(name: string, params: S, run: (params: z.infer<S>, ctx: ActionContext) => Promise<unknown>): void {
  verbs.set(name, { params, run: run as ActionHandler });
}

/** The handler of a verb, taking its raw params. */
export function getAction(name: string): ActionHandler | undefined {
  const verb = verbs.get(name);
  return verb && ((raw, ctx) => verb.run(parseParams(verb.params, raw), ctx));
}

/** The params schema of a verb (for the test that holds them to the contract). */
export function actionParams(name: string): z.ZodMiniType | undefined {
  return verbs.get(name)?.params;
}

export function registeredActions(): string[] {
  return [...verbs.keys()].sort();
}
