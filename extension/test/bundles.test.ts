import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { BUNDLES } from "../build.ts";

// What the bundles are made of (BENCHMARKS.md, "Extension bundles"): zod/mini with its English
// messages, never classic zod (whose locales alone were 258 KB of every bundle) nor the schemas
// package's index with its engines. The RE2 engine (150 KB) is in re2.js alone, which the worker
// injects only for a regex name (src/shared/regex-engine.ts). Built exactly as `npm run build` does,
// without writing.

const HEAVY = [
  /node_modules\/zod\/v4\/classic\//,
  /node_modules\/zod\/v4\/locales\/(?!en\.js$)/,
  /packages\/schemas\/src\/index\.ts$/,
  /node_modules\/(handlebars|jsonpath-plus|re2js)\//,
];

async function inputsOf(name: keyof typeof BUNDLES): Promise<string[]> {
  const result = await build({ ...BUNDLES[name], write: false, metafile: true, logLevel: "silent" });
  // What is in the output: esbuild also lists modules it read and then shook out entirely.
  return Object.values(result.metafile.outputs).flatMap((o) =>
    Object.entries(o.inputs)
      .filter(([, use]) => use.bytesInOutput > 0)
      .map(([file]) => file),
  );
}

describe("extension bundles", () => {
  for (const name of ["background", "content", "sidepanel", "options"] as const) {
    it(`${name} parses with zod/mini and carries no classic zod, other locales or schema engines`, async () => {
      const inputs = await inputsOf(name);
      expect(inputs.some((i) => /node_modules\/zod\/v4\/mini\//.test(i))).toBe(true);
      expect(inputs.filter((i) => HEAVY.some((re) => re.test(i)))).toEqual([]);
    });
  }

  it("re2 carries the RE2 engine and nothing else heavy", async () => {
    const inputs = await inputsOf("re2");
    expect(inputs.some((i) => /node_modules\/re2js\//.test(i))).toBe(true);
    expect(inputs.filter((i) => /node_modules\/(zod|handlebars|jsonpath-plus|minisearch)\//.test(i))).toEqual([]);
  });

  it("the side panel and the options page take the actions' names, not their params schemas", async () => {
    for (const name of ["sidepanel", "options"] as const) {
      expect((await inputsOf(name)).filter((i) => /contract\/(browser-action|role-selector|pcd)-schema\.ts$/.test(i)), name).toEqual([]);
    }
  });

  it("only the content script carries the query index (minisearch)", async () => {
    expect((await inputsOf("content")).some((i) => /node_modules\/minisearch\//.test(i))).toBe(true);
    for (const name of ["background", "sidepanel", "options"] as const) {
      expect((await inputsOf(name)).filter((i) => /node_modules\/minisearch\//.test(i)), name).toEqual([]);
    }
  });
});
