export interface CatalogEntry {
  name: string;
  summary: string;
  /** Long-running commands get SIGINT/SIGTERM as `ctx.shutdown` instead of dying at once. */
  longRunning?: boolean;
}
export declare const COMMANDS: readonly CatalogEntry[];
export declare const VERSION: string;
export declare function globalUsage(): string;
export declare function topLevelAnswer(first: string | undefined): { stream: "out" | "err"; text: string; code: number } | undefined;
