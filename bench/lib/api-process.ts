import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export interface ApiProcess {
  url: string;
  pid: number;
  close(): Promise<void>;
}

const entry = fileURLToPath(new URL("./api-main.ts", import.meta.url));

/**
 * Starts `@crumbs/api` in a child node process. Extra node flags (e.g. `--cpu-prof`, `--trace-gc`) come
 * from BENCH_API_NODE_ARGS, which is how the profiles and GC traces in BENCHMARKS.md were taken.
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const extra = (process.env.BENCH_API_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...extra, "--import", "tsx", entry], {
    // The access log (one line per request at info) is off unless LOG_LEVEL asks: the suites measure the API.
    env: { LOG_LEVEL: "warn", ...process.env, ...env, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const onExit = (code: number | null) => reject(new Error(`api child exited with ${code} before listening`));
    child.once("exit", onExit);
    let listening = false;
    lines.on("line", (line) => {
      // The API's log lines and what Node flags such as --trace-gc print share stdout: they go to
      // stderr, and the one line that is `{"url": ...}` says it is listening.
      const url = listening ? undefined : urlOf(line);
      if (url === undefined) {
        process.stderr.write(`api: ${line}\n`);
        return;
      }
      listening = true;
      child.off("exit", onExit);
      resolve(url);
    });
  });
  return { url, pid: child.pid!, close: () => stopChild(child) };
}

function urlOf(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as Record<string, unknown> | null;
    // api-main.ts prints `{"url": ...}` alone; a log line may carry a url among its other fields.
    return parsed && typeof parsed.url === "string" && Object.keys(parsed).length === 1 ? parsed.url : undefined;
  } catch {
    return undefined;
  }
}

export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
