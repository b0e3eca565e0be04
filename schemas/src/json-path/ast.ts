import type { Expr } from "../lang/expression.ts";

// The parsed form of a JSONPath, shared by the parser (json-path.ts) and the evaluators
// (json-path-own.ts, json-path-plus.ts) so that neither side imports the other.

export type Key = { t: "name"; name: string } | { t: "index"; index: number };
export type Slice = { t: "slice"; start: number | undefined; end: number | undefined; step: number };
export type Filter = { t: "filter"; body: string; expr: Expr };
export type Step = Key | Slice | Filter | { t: "wild" } | { t: "union"; items: Key[] } | { t: "desc"; inner: Step };

export interface CompiledPath {
  readonly source: string;
  readonly steps: readonly Step[];
  /** Only names and indexes: the path names at most one value. */
  readonly definite: boolean;
}
