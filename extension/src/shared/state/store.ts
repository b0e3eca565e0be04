import type * as z from "@crumbs/schemas/zod-mini";

// chrome.storage.local, typed: every value read back is parsed (a corrupt or old value reads as
// the fallback, never crashes the worker), and read-modify-write on one key is serialized so two
// handlers in the same worker cannot lose each other's change. The worker is the only writer of
// these keys; pages ask it through runtime messages.

const chains = new Map<string, Promise<unknown>>();

export interface StoredValue<T> {
  readonly key: string;
  get(): Promise<T>;
  set(value: T): Promise<void>;
  /** Applies `fn` to the current value and stores the result (unless `fn` returned the same object). */
  update(fn: (current: T) => T | Promise<T>): Promise<T>;
}

export function stored<S extends z.ZodMiniType>(key: string, schema: S, fallback: () => z.infer<S>): StoredValue<z.infer<S>> {
  type T = z.infer<S>;
  const get = async (): Promise<T> => {
    const raw = (await chrome.storage.local.get(key))[key];
    if (raw === undefined) return fallback();
    const parsed = schema.safeParse(raw);
    return parsed.success ? parsed.data : fallback();
  };
  const set = (value: T) => chrome.storage.local.set({ [key]: value });
  const update = (fn: (current: T) => T | Promise<T>): Promise<T> => {
    const prev = chains.get(key) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(async () => {
      const current = await get();
      const value = await fn(current);
      if (value !== current) await set(value);
      return value;
    });
    chains.set(key, next);
    return next;
  };
  return { key, get, set, update };
}
