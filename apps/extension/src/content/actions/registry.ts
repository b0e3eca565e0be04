/** What a content-side action handler gets besides its params. */
export interface ActionContext {
  /** Identity of this document; changes on navigation, so refs of an older page never match. */
  docId: string;
}

export type ActionHandler = (params: unknown, ctx: ActionContext) => Promise<unknown>;

const handlers = new Map<string, ActionHandler>();

/** Action files call this at import time; content index.ts dispatches every non-snapshot message here. */
export function registerAction(name: string, handler: ActionHandler): void {
  handlers.set(name, handler);
}

export function getAction(name: string): ActionHandler | undefined {
  return handlers.get(name);
}

export function registeredActions(): string[] {
  return [...handlers.keys()].sort();
}
