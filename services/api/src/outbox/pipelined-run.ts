import { splitBatch, type OutboxRow, type Outgoing, type Sent, type ToPark } from "./batch.ts";

/** Publishes one message, expecting the stream's last message to be `previousMsgId`; resolves with the ack's time. */
export type PublishFn = (m: Outgoing, previousMsgId: string | undefined) => Promise<number>;

type Settled = { ok: true; at: number } | { ok: false; reason: unknown };

/**
 * The publishes of one relay batch, all in flight at once, in seq order on one connection
 * (JetStream stores one connection's publishes in the order sent). The batch may grow while
 * its acks are awaited: rows read later are sent chained after the ones already in flight.
 * Every message but the batch's first expects the stream's last message to be the one sent
 * before it, so if one is refused, every later one is refused too, across reads: nothing lands
 * ahead of a gap, and the acked messages are a prefix of the sent ones. The first needs no
 * check: everything before it is acked. Only the acked prefix is deleted; the rest is sent
 * again by the next batch, and Nats-Msg-Id dedup makes sending twice harmless.
 */
export class PipelinedRun {
  private readonly held: Map<string, number>;
  private readonly out: Outgoing[] = [];
  private readonly acks: Promise<Settled>[] = [];
  /** Per sent message, when its read returned (performance.now()). */
  private readonly readAts: number[] = [];
  private readonly read: string[] = [];
  private parked = 0;
  private anyFailed = false;

  constructor(
    heldFrom: ReadonlyMap<string, number>,
    private readonly maxPayload: number,
  ) {
    this.held = new Map(heldFrom);
  }

  /** Sends what can go out of rows just read (in seq order); returns the rows to park. */
  add(rows: readonly OutboxRow[], publish: PublishFn): ToPark[] {
    const readAt = performance.now();
    const { send, parked } = splitBatch(rows, this.held, this.maxPayload);
    for (const r of rows) this.read.push(r.seq);
    // A row parked here holds its owner's later rows in the reads still to come.
    for (const p of parked) this.holdFrom(p.owner, Number(p.row.seq));
    this.parked += parked.length;
    for (const m of send) {
      const previous = this.out.at(-1)?.row.msg_id;
      this.out.push(m);
      this.readAts.push(readAt);
      this.acks.push(
        publish(m, previous).then(
          (at): Settled => ({ ok: true, at }),
          (reason: unknown): Settled => {
            this.anyFailed = true;
            return { ok: false, reason };
          },
        ),
      );
    }
    return parked;
  }

  /** Owners parked since the batch began (read again from the outbox's dead letters). */
  addHeld(heldFrom: ReadonlyMap<string, number>): void {
    for (const [owner, seq] of heldFrom) this.holdFrom(owner, seq);
  }

  private holdFrom(owner: string, seq: number): void {
    const from = this.held.get(owner);
    if (from === undefined || seq < from) this.held.set(owner, seq);
  }

  /** True when the owner's rows are held behind a parked one (they park too, in order). */
  isHeld(owner: string): boolean {
    return this.held.has(owner);
  }

  /** Rows read so far (sent or parked). */
  size(): number {
    return this.read.length;
  }

  /** The seqs read so far: a later read in the same transaction leaves them out. */
  seqs(): readonly string[] {
    return this.read;
  }

  /** True once any publish was refused or failed: the ones after it will be too. */
  failed(): boolean {
    return this.anyFailed;
  }

  /** Resolves when every publish sent so far has its answer. */
  async settled(): Promise<"settled"> {
    await Promise.all(this.acks);
    return "settled";
  }

  sent(): readonly Outgoing[] {
    return this.out;
  }

  readAt(i: number): number {
    return this.readAts[i]!;
  }

  parkedCount(): number {
    return this.parked;
  }

  /** The acked prefix's ack times, and the first failure when there was one. */
  async outcome(): Promise<{ ackedAt: number[]; failure?: unknown }> {
    const all = await Promise.all(this.acks);
    const ackedAt: number[] = [];
    for (const a of all) {
      if (!a.ok) return { ackedAt, failure: a.reason };
      ackedAt.push(a.at);
    }
    return { ackedAt };
  }
}

/** The careful path after a failure: one batch as read, each publish acked before the next. */
export async function sendInTurn(
  batch: { rows: readonly OutboxRow[]; heldFrom: ReadonlyMap<string, number> },
  { maxPayload, batchSize }: { maxPayload: number; batchSize: number },
  publish: (m: Outgoing) => Promise<number>,
  park: (parked: readonly ToPark[]) => Promise<void>,
): Promise<Sent> {
  const readAt = performance.now();
  const { send, parked } = splitBatch(batch.rows, batch.heldFrom, maxPayload);
  if (parked.length > 0) await park(parked);
  const ackedAt: number[] = [];
  let failure: unknown;
  for (const m of send) {
    try {
      ackedAt.push(await publish(m));
    } catch (err) {
      failure = err;
      break;
    }
  }
  return { send, ackedAt, ...(failure !== undefined ? { failure } : {}), readAt: () => readAt, full: batch.rows.length === batchSize, parked: parked.length };
}
