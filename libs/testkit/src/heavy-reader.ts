/**
 * A hostile reader of its own large history, as the hostile-neighbour test and bench suite run it:
 * `loops` clients paging `GET /v1/events?after=…&limit=1000` from seq 0 to the end and again, and
 * `ndjsonLoops` clients reading it the same way streamed (`Accept: application/x-ndjson`, the largest answer), and
 * `streams` SSE streams opened from `after=0` (and again once caught up), spread over the owner's `tokens` (every key of one
 * owner shares the owner's limits, so more keys must gain nothing). It counts what it gets; it
 * never checks latency.
 */
export interface HeavyReaderOptions {
  url: string;
  /** Keys of the one hostile owner. */
  tokens: readonly string[];
  loops: number;
  /** Loops reading the history as streamed NDJSON answers; none when absent. */
  ndjsonLoops?: number;
  streams: number;
  /** Events in the owner's history: a pass or a stream that has them all is complete. */
  events: number;
}

export interface HeavyReaderStats {
  /** Pages answered 200 and pages answered otherwise (by status, or "error"). */
  pages: number;
  refused: Record<string, number>;
  /** Passes from seq 0 to the end that returned every event, in seq order, once. */
  completePasses: number;
  /** Passes that did not (missing, repeated or unordered events). */
  brokenPasses: number;
  /** Largest page body seen, in bytes, and the largest page of more than one event. */
  largestPage: number;
  largestMultiEventPage: number;
  /** Streams from seq 0 that received every event of the history (each is then closed and opened again). */
  streamsCaughtUp: number;
  /** NDJSON answers read to their closing line, and passes of the ndjson loops (also in complete/brokenPasses). */
  streamedAnswers: number;
  streamedPasses: number;
}

export interface HeavyReader {
  readonly stats: HeavyReaderStats;
  stop(): Promise<HeavyReaderStats>;
}

const emptyStats = (): HeavyReaderStats => ({
  pages: 0,
  refused: {},
  completePasses: 0,
  brokenPasses: 0,
  largestPage: 0,
  largestMultiEventPage: 0,
  streamsCaughtUp: 0,
  streamedAnswers: 0,
  streamedPasses: 0,
});

export function startHeavyReader(opts: HeavyReaderOptions): HeavyReader {
  const stats = emptyStats();
  const stop = new AbortController();
  const token = (i: number) => opts.tokens[i % opts.tokens.length] as string;
  const refuse = (why: string) => (stats.refused[why] = (stats.refused[why] ?? 0) + 1);
  /** A pass read the history to its end: complete when it holds every event once, in seq order. */
  const passEnded = (seqs: readonly number[]) => {
    const ordered = seqs.every((s, k) => k === 0 || s > (seqs[k - 1] as number));
    if (ordered && seqs.length === opts.events) stats.completePasses++;
    else stats.brokenPasses++;
  };

  const loop = async (i: number) => {
    while (!stop.signal.aborted) {
      const seqs: number[] = [];
      let after = 0;
      for (;;) {
        let res: Response;
        try {
          res = await fetch(`${opts.url}/v1/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${token(i)}` }, signal: stop.signal });
        } catch {
          if (stop.signal.aborted) return;
          refuse("error");
          break;
        }
        const text = await res.text().catch(() => "");
        if (res.status !== 200) {
          refuse(String(res.status));
          break;
        }
        stats.pages++;
        const page = JSON.parse(text) as { items: { seq: number }[]; next_after: number | null; has_more: boolean };
        stats.largestPage = Math.max(stats.largestPage, text.length);
        if (page.items.length > 1) stats.largestMultiEventPage = Math.max(stats.largestMultiEventPage, text.length);
        seqs.push(...page.items.map((e) => e.seq));
        if (!page.has_more || page.next_after === null) {
          passEnded(seqs);
          break;
        }
        after = page.next_after;
      }
    }
  };

  /** The history from seq 0 to the end in streamed answers, each followed to its closing line. */
  const ndjsonLoop = async (i: number) => {
    while (!stop.signal.aborted) {
      const seqs: number[] = [];
      let after = 0;
      for (;;) {
        let text: string;
        try {
          const res = await fetch(`${opts.url}/v1/events?after=${after}&limit=100000`, {
            headers: { authorization: `Bearer ${token(i)}`, accept: "application/x-ndjson" },
            signal: stop.signal,
          });
          text = await res.text();
          if (res.status !== 200) {
            refuse(`ndjson ${res.status}`);
            break;
          }
        } catch {
          if (stop.signal.aborted) return;
          refuse("ndjson error");
          break;
        }
        const lines = text.split("\n").filter((l) => l !== "");
        const closing = JSON.parse(lines.pop() ?? "{}") as { seq?: number; next_after?: number | null; has_more?: boolean };
        if (closing.has_more === undefined || closing.seq !== undefined) {
          refuse("ndjson without closing line");
          break;
        }
        stats.streamedAnswers++;
        for (const l of lines) seqs.push((JSON.parse(l) as { seq: number }).seq);
        if (!closing.has_more || closing.next_after === null || closing.next_after === undefined) {
          stats.streamedPasses++;
          passEnded(seqs);
          break;
        }
        after = closing.next_after;
      }
    }
  };

  /** One stream from seq 0 until it has every event; the caller opens the next. */
  const stream = async (i: number) => {
    let res: Response;
    try {
      res = await fetch(`${opts.url}/v1/events/stream?after=0`, { headers: { authorization: `Bearer ${token(i)}` }, signal: stop.signal });
    } catch {
      if (!stop.signal.aborted) refuse("stream error");
      return;
    }
    if (res.status !== 200 || !res.body) {
      refuse(`stream ${res.status}`);
      await res.body?.cancel().catch(() => {});
      return;
    }
    let seen = 0;
    let tail = "";
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        // Only the `id:` lines are counted: one per event, never split from its line by the count.
        const lines = (tail + decoder.decode(chunk, { stream: true })).split("\n");
        tail = lines.pop() ?? "";
        for (const line of lines) if (line.startsWith("event: ")) seen++;
        if (seen >= opts.events) {
          stats.streamsCaughtUp++;
          return;
        }
      }
    } catch {
      // aborted by stop()
    } finally {
      await res.body.cancel().catch(() => {});
    }
  };

  const streams = async (i: number) => {
    while (!stop.signal.aborted) await stream(i);
  };
  const running = [
    ...Array.from({ length: opts.loops }, (_, i) => loop(i)),
    ...Array.from({ length: opts.ndjsonLoops ?? 0 }, (_, i) => ndjsonLoop(i)),
    ...Array.from({ length: opts.streams }, (_, i) => streams(i)),
  ];
  return {
    stats,
    async stop() {
      stop.abort();
      await Promise.allSettled(running);
      return stats;
    },
  };
}

/**
 * startHeavyReader in a child process of its own: a test or bench measuring another client's
 * latency in its own process must not have that client wait behind the reader's JSON parsing.
 * `stats` follows the child's counts (every 100 ms); `stop` ends it and answers the final ones.
 */
export async function spawnHeavyReader(opts: HeavyReaderOptions): Promise<HeavyReader> {
  const { fork } = await import("node:child_process");
  const child = fork(new URL("./heavy-reader-main.ts", import.meta.url).pathname, [], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const stats = emptyStats();
  let final: ((s: HeavyReaderStats) => void) | undefined;
  child.on("message", (msg: { stats?: HeavyReaderStats; final?: boolean }) => {
    if (msg.stats) Object.assign(stats, msg.stats);
    if (msg.final) final?.(stats);
  });
  child.send({ start: opts });
  return {
    stats,
    stop: () =>
      new Promise<HeavyReaderStats>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(stats);
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        final = resolve;
        child.once("exit", () => {
          clearTimeout(timer);
          resolve(stats);
        });
        child.send({ stop: true });
      }),
  };
}
