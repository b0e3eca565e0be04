/**
 * Builds the dashboard into dist/: one minified ES module bundle (Preact included, nothing
 * loaded from the network at runtime) plus static/ copied as is. Files are overwritten in
 * place, so an API serving dist meanwhile never sees it empty.
 */
import { cp, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { dashboardDist } from "./index.ts";

const here = fileURLToPath(new URL(".", import.meta.url));

export async function buildDashboard(): Promise<void> {
  const started = Date.now();
  await mkdir(dashboardDist, { recursive: true });
  await Promise.all([
    build({
      entryPoints: [join(here, "src/main.tsx")],
      outfile: join(dashboardDist, "app.js"),
      bundle: true,
      format: "esm",
      target: "es2022",
      jsx: "automatic",
      jsxImportSource: "preact",
      minify: true,
      sourcemap: "linked",
      legalComments: "none",
      logLevel: "warning",
    }),
    cp(join(here, "static"), dashboardDist, { recursive: true }),
  ]);
  console.log(`dashboard built into ${dashboardDist} in ${Date.now() - started} ms`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildDashboard();
}
