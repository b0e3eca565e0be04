import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { BUNDLES } from "../build.ts";

// What the four bundles are made of (BENCHMARKS.md, "Extension bundles"): zod/mini with its English
// messages, never classic zod (whose locales alone were 258 KB of every bundle) nor the schemas
// package's index with its engines. Built exactly as `npm run build` does, without writing.

const HEAVY = [
  /node_modules\/zod\/v4\/classic\//,
  /node_modules\/zod\/v4\/locales\/(?!en\.js$)/,
  /packages\/schemas\/src\/index\.ts$/,
  /node_modules\/(handlebars|jsonpath-plus|re2js)\//,
];

describe("extension bundles", () => {
  for (const [name, opts] of Object.entries(BUNDLES)) {
    it(`${name} parses with zod/mini and carries no classic zod, other locales or schema engines`, async () => {
      const result = await build({ ...opts, write: false, metafile: true, logLevel: "silent" });
      // What is in the output: esbuild also lists modules it read and then shook out entirely.
      const inputs = Object.values(result.metafile.outputs).flatMap((o) =>
        Object.entries(o.inputs)
          .filter(([, use]) => use.bytesInOutput > 0)
          .map(([file]) => file),
      );
      expect(inputs.some((i) => /node_modules\/zod\/v4\/mini\//.test(i))).toBe(true);
      expect(inputs.filter((i) => HEAVY.some((re) => re.test(i)))).toEqual([]);
    });
  }
});
