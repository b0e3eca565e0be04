import type { Breadcrumb, CrumbsHttp } from "@crumbs/agent-sdk";

// Reads of a session's newest breadcrumbs of some schemas (the memory's page, the cancels), many
// sessions in one request. With triggers of several sessions in flight, each one's two reads were
// two list requests: measured under load, those were half of the API's CPU per trigger. A read
// goes out at once when no request of its kind is in flight (no wait added when idle); reads asked
// for meanwhile go together in the next request. Each still sees what was written before it was
// asked for: the request that answers it is sent after that.

/** The API's largest page. */
const PAGE_LIMIT = 500;

export interface SessionReadsOptions {
  schemaNames: string[];
  /** The newest this many breadcrumbs of a session are read (what one request for it alone asks). */
  perSession: number;
  /** Sessions in one request. */
  maxSessions: number;
}

const tagOf = (session: string) => `session:${session}`;

/**
 * Each session's items of one page read for all of them (newest first). A page that came back
 * short of its limit and without a cursor holds every match, so every session is complete; a
 * full one holds everything newer than its last item, so a session with `perSession` items in
 * it is complete too. The others (undefined) are read alone.
 */
export function splitBySession(
  page: { items: Breadcrumb[]; next_cursor?: string | null | undefined },
  sessions: string[],
  opts: { perSession: number; limit: number },
): Map<string, Breadcrumb[] | undefined> {
  const complete = page.items.length < opts.limit && !page.next_cursor;
  const out = new Map<string, Breadcrumb[] | undefined>();
  for (const s of sessions) {
    const tag = tagOf(s);
    const items = page.items.filter((b) => b.tags.includes(tag)).slice(0, opts.perSession);
    out.set(s, complete || items.length >= opts.perSession ? items : undefined);
  }
  return out;
}

interface Waiter {
  resolve: (items: Breadcrumb[]) => void;
  reject: (err: unknown) => void;
}

export class SessionReads {
  private readonly waiting = new Map<string, Waiter[]>();
  private inFlight = false;

  constructor(
    private readonly http: CrumbsHttp,
    private readonly opts: SessionReadsOptions,
  ) {}

  /** The session's newest `perSession` breadcrumbs of the schemas, newest first. */
  read(session: string): Promise<Breadcrumb[]> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(session);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(session, [{ resolve, reject }]);
      if (!this.inFlight) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const sessions = [...this.waiting.keys()].slice(0, this.opts.maxSessions);
    if (!sessions.length) return;
    const waiters = sessions.map((s) => {
      const w = this.waiting.get(s)!;
      this.waiting.delete(s);
      return w;
    });
    this.inFlight = true;
    try {
      const found = await this.readMany(sessions);
      sessions.forEach((s, i) => waiters[i]!.forEach((w) => w.resolve(found.get(s)!)));
    } catch (err) {
      for (const w of waiters.flat()) w.reject(err);
    } finally {
      this.inFlight = false;
      if (this.waiting.size) void this.flush();
    }
  }

  private async readMany(sessions: string[]): Promise<Map<string, Breadcrumb[]>> {
    const { schemaNames, perSession } = this.opts;
    const limit = Math.min(PAGE_LIMIT, perSession * sessions.length);
    const page = await this.http.list({ selector: { schema_name: schemaNames, any_tags: sessions.map(tagOf) }, limit });
    const split = splitBySession(page, sessions, { perSession, limit });
    const out = new Map<string, Breadcrumb[]>();
    await Promise.all(
      sessions.map(async (s) => {
        const items = split.get(s) ?? (await this.http.list({ selector: { schema_name: schemaNames, all_tags: [tagOf(s)] }, limit: perSession })).items;
        out.set(s, items);
      }),
    );
    return out;
  }
}
