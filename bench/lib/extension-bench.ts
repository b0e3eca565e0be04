import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const extensionDir = fileURLToPath(new URL("../../extension/", import.meta.url));

/**
 * Runs one of the extension's own benches (`extension/bench/<name>-bench.ts`, which drive Chromium
 * and write `extension/bench/results/<name>.json`), passes its lines to `log`, and returns that JSON,
 * refusing a file this run did not write.
 */
export async function runExtensionBench<T extends { at: string }>(name: string, env: Record<string, string>, log: (m: string) => void): Promise<T> {
  const started = Date.now();
  const script = `${extensionDir}bench/${name}-bench.ts`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: extensionDir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.on("data", (d: Buffer) => {
      for (const line of d.toString().split("\n")) if (line.trim()) log(line);
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`extension/bench/${name}-bench.ts exited ${code}`))));
  });
  const report = JSON.parse(await readFile(`${extensionDir}bench/results/${name}.json`, "utf8")) as T;
  if (Date.parse(report.at) < started - 1_000) throw new Error(`extension/bench/results/${name}.json was not rewritten by this run`);
  return report;
}
