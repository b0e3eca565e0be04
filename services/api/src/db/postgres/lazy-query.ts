/**
 * What drizzle gets back from `client.unsafe(...)`: like postgres-js's
 * PendingQuery it runs only when awaited and supports `.values()` (the one
 * modifier drizzle calls) and `.raw()` (db/raw-rows.ts: columns as the bytes
 * Postgres sent), but running goes through the supervisor, which picks the
 * live client at that moment and bounds the wait.
 */
export class LazyQuery<T> implements PromiseLike<T> {
  #values = false;
  #raw = false;
  #result?: Promise<T>;

  constructor(private readonly start: (values: boolean, raw: boolean) => Promise<T>) {}

  values(): this {
    this.#values = true;
    return this;
  }

  raw(): this {
    this.#raw = true;
    return this;
  }

  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.#result ??= this.start(this.#values, this.#raw);
    return this.#result.then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}

/** Rejects with `onTimeout()` when `op` has not settled within `ms`; the timer never outlives the race. */
export async function withDeadline<T>(op: () => PromiseLike<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    // Promise.resolve().then(op): a synchronous throw from the driver becomes a rejection too.
    return await Promise.race([Promise.resolve().then(op), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
