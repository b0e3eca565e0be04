import type { Breadcrumb, CrumbsHttp } from "@crumbs/agent-sdk";

// Reads of a session's newest breadcrumbs of some schemas (the memory's page before the model
// call, the cancels after it), many sessions and both kinds in one request. With triggers of
// several sessions in flight, each one's two reads were two list requests: measured under load,
// those were half of the API's CPU per trigger. A read goes out at once when no request is in
// flight (no wait added when idle); reads asked for meanwhile go together in the next request.
// Each still sees what was written before it was asked for: the request that answers it is sent
// after that.

/** The API's largest page. */
const PAGE_LIMIT = 500;
/** Reads in one request. */
const MAX_ASKS = 16;

/** What a read asks of a session: its newest `perSession` breadcrumbs of these schemas, newest first. */
export interface ReadKind {
  schemaNames: readonly string[];
  perSession: number;
}

export interface Ask {
  session: string;
  kind: ReadKind;
}

const tagOf = (session: string) => `session:${session}`;

/**
 * Each ask's items of one page read for all of them (newest first). A page that came back short
 * of its limit and without a cursor holds every match, so every ask is complete; a full one holds
 * everything newer than its last item, so an ask with `perSession` items in it is complete too.
 * The others (undefined) are read alone.
 */
export function splitPage(page: { items: Breadcrumb[]; next_cursor?: string | null | undefined }, asks: Ask[], limit: number): (Breadcrumb[] | undefined)[] {
  const complete = page.items.length < limit && !page.next_cursor;
  return asks.map(({ session, kind }) => {
    const tag = tagOf(session);
    const items = page.items.filter((b) => b.tags.includes(tag) && kind.schemaNames.includes(b.schema_name)).slice(0, kind.perSession);
    return complete || items.length >= kind.perSession ? items : undefined;
  });
}

interface Waiting extends Ask {
  waiters: Array<{ resolve: (items: Breadcrumb[]) => void; reject: (err: unknown) => void }>;
}

export class SessionReads {
  private readonly waiting = new Map<string, Waiting>();
  private inFlight = false;

  constructor(private readonly http: CrumbsHttp) {}

  read(kind: ReadKind, session: string): Promise<Breadcrumb[]> {
    return new Promise((resolve, reject) => {
      const key = `${kind.schemaNames.join(",")}\u0000${kind.perSession}\u0000${session}`;
      const w = this.waiting.get(key);
      if (w) w.waiters.push({ resolve, reject });
      else this.waiting.set(key, { session, kind, waiters: [{ resolve, reject }] });
      if (!this.inFlight) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const keys = [...this.waiting.keys()].slice(0, MAX_ASKS);
    if (!keys.length) return;
    const asks = keys.map((k) => {
      const w = this.waiting.get(k)!;
      this.waiting.delete(k);
      return w;
    });
    this.inFlight = true;
    try {
      const found = await this.readMany(asks);
      asks.forEach((a, i) => a.waiters.forEach((w) => w.resolve(found[i]!)));
    } catch (err) {
      for (const a of asks) for (const w of a.waiters) w.reject(err);
    } finally {
      this.inFlight = false;
      if (this.waiting.size) void this.flush();
    }
  }

  private async readMany(asks: Ask[]): Promise<Breadcrumb[][]> {
    const limit = Math.min(PAGE_LIMIT, asks.reduce((n, a) => n + a.kind.perSession, 0));
    const selector = {
      schema_name: [...new Set(asks.flatMap((a) => a.kind.schemaNames))],
      any_tags: [...new Set(asks.map((a) => tagOf(a.session)))],
    };
    const split = splitPage(await this.http.list({ selector, limit }), asks, limit);
    return Promise.all(
      asks.map(async ({ session, kind }, i) => {
        const alone = { schema_name: [...kind.schemaNames], all_tags: [tagOf(session)] };
        return split[i] ?? (await this.http.list({ selector: alone, limit: kind.perSession })).items;
      }),
    );
  }
}
