/** One measured figure, printed as a table row and stored in latest.json. */
export interface Figure {
  metric: string;
  value: number;
  unit: string;
  /** The baseline measured in the same run, on the same machine. */
  baseline?: { name: string; value: number; unit: string };
  /** value / baseline.value, or its inverse when lower is better; >1 means we are ahead. */
  ratio?: number;
  goal?: string;
  met?: boolean;
  note?: string;
}

export interface SuiteResult {
  suite: string;
  figures: Figure[];
  /** Anything else worth keeping: parameters, raw samples summaries. */
  params?: Record<string, unknown>;
}

export interface Suite {
  name: string;
  description: string;
  run(opts: { quick: boolean; log: (msg: string) => void }): Promise<SuiteResult>;
}
