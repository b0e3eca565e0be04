export declare const BUNDLED_PACKAGES: readonly string[];
export declare function packageOf(specifier: string): string | undefined;
export declare function staysExternal(specifier: string): boolean;
/** The parts of esbuild's metafile the plan reads. */
export interface BundleMetafile {
  outputs: Record<string, { entryPoint?: string; imports: { path: string; kind: string; external?: boolean }[] }>;
}
export declare function servedCommands(metafile: BundleMetafile, entry: string, commandsDir: string): string[];
export declare function stillFresh(
  inputs: readonly (readonly [string, number, number])[],
  statOf: (path: string) => { mtimeMs: number; size: number } | undefined,
): boolean;
