/**
 * Builds the unpacked extension into dist/: the worker as an ES module, the content script as an IIFE
 * (content scripts cannot be modules), the icons drawn (icons.ts), and everything in static/ copied as is. Idempotent: files are
 * overwritten in place, never deleted first, so a browser test running meanwhile keeps a loadable dist.
 */
import { cp, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions } from "esbuild";
import { ICON_SIZES, iconPng } from "./icons.ts";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");

const common: BuildOptions = {
  bundle: true,
  target: "chrome121",
  sourcemap: "linked",
  logLevel: "warning",
  legalComments: "none",
  minify: true,
};

/** The bundles: entry point, output file and format of each. */
export const BUNDLES = {
  // nats.ws carries a Node fallback (`require("crypto")`) behind a typeof check that a worker never takes.
  background: { ...common, entryPoints: [join(here, "src/background/index.ts")], outfile: join(dist, "background.js"), format: "esm", external: ["crypto"] },
  content: { ...common, entryPoints: [join(here, "src/content/index.ts")], outfile: join(dist, "content.js"), format: "iife" },
  sidepanel: { ...common, entryPoints: [join(here, "src/sidepanel/index.ts")], outfile: join(dist, "sidepanel.js"), format: "iife" },
  options: { ...common, entryPoints: [join(here, "src/options/index.ts")], outfile: join(dist, "options.js"), format: "iife" },
  // In the page's own JS world: answers whether an element has a click handler of its own (shared/own-click.ts).
  "page-world": { ...common, entryPoints: [join(here, "src/page-world/index.ts")], outfile: join(dist, "page-world.js"), format: "iife" },
  // The RE2 engine, injected beside the content script only for a role selector with a regex name.
  re2: { ...common, entryPoints: [join(here, "src/re2/index.ts")], outfile: join(dist, "re2.js"), format: "iife" },
} satisfies Record<string, BuildOptions>;

export async function buildExtension(): Promise<void> {
  const started = Date.now();
  await mkdir(join(dist, "icons"), { recursive: true });
  await Promise.all([
    ...Object.values(BUNDLES).map((opts) => build(opts)),
    cp(join(here, "static"), dist, { recursive: true }),
    ...ICON_SIZES.map((size) => writeFile(join(dist, "icons", `icon-${size}.png`), iconPng(size))),
  ]);
  console.log(`extension built into ${dist} in ${Date.now() - started} ms`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildExtension();
}
