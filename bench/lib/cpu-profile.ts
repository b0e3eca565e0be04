import { mkdir, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { join } from "node:path";

/**
 * Runs `fn`, and when BENCH_CPU_PROFILE names a directory, writes this process's CPU profile of
 * that phase alone to `<dir>/<name>.cpuprofile` (open it in Chrome's DevTools): `node --cpu-prof`
 * would also hold the start-up, the stack's set-up and the other phases.
 */
export async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return fn();
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
    const out = await fn();
    const { profile } = await session.post("Profiler.stop");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    return out;
  } finally {
    session.disconnect();
  }
}
