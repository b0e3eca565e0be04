/**
 * How much one page may hold: rows, and bytes of the rows' JSON. A history of 700 KB breadcrumbs
 * read 1,000 rows at a time made one GET hold some 700 MB and take 36 s; a page now stops at
 * `bytes` and hands back the cursor to continue. Pure; the readers (events.ts, list.ts,
 * history.ts) size their rows in SQL first (sized-read.ts) and fetch only what fits.
 */
export interface PageLimits {
  /** Rows examined per page (the request's `limit`, plus the selector scan bound). */
  rows: number;
  /** Bytes of row JSON per page (CRUMBS_PAGE_MAX_BYTES). */
  bytes: number;
}

/** The default of CRUMBS_PAGE_MAX_BYTES: a few ms to serialise, tens of pages a second per core. */
export const DEFAULT_PAGE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Size probes start this small: sizing a large row costs Postgres its decompression and text
 * conversion, so a history of 700 KB rows must not be sized 16 at a time to send 5.
 */
const FIRST_PROBE = 4;
const MAX_PROBE = 1_024;

export class PageBudget {
  private rowsTaken = 0;
  private bytesTaken = 0;

  constructor(readonly limits: PageLimits) {}

  get rows(): number {
    return this.rowsTaken;
  }

  get bytes(): number {
    return this.bytesTaken;
  }

  /**
   * How many of these rows (sizes in page order) go on the page, and takes them. A row larger
   * than the whole budget still goes out, alone on its own page: refusing it would stall every
   * cursor behind it forever, and its size is already bounded by the write limit.
   */
  fit(sizes: readonly number[]): number {
    let n = 0;
    for (const bytes of sizes) {
      if (this.rowsTaken >= this.limits.rows) break;
      if (this.rowsTaken > 0 && this.bytesTaken + bytes > this.limits.bytes) break;
      this.rowsTaken++;
      this.bytesTaken += bytes;
      n++;
      if (this.bytesTaken >= this.limits.bytes) break;
    }
    return n;
  }

  /**
   * Rows to size next, one more than still wanted so the reader learns whether more follow:
   * a few first, then as many as the rows seen so far say the rest of the budget holds.
   */
  nextProbe(): number {
    const wanted = this.limits.rows - this.rowsTaken;
    if (wanted <= 0 || this.bytesTaken >= this.limits.bytes) return 0;
    const estimate =
      this.rowsTaken === 0 ? FIRST_PROBE : Math.ceil((this.limits.bytes - this.bytesTaken) / Math.max(1, this.bytesTaken / this.rowsTaken));
    return Math.min(wanted, MAX_PROBE, Math.max(1, estimate)) + 1;
  }
}
