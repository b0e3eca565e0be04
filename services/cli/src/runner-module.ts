export interface RunnerHandle {
  close(): Promise<void>;
}
export type StartRunner = (opts: { crumbsUrl: string; token: string; natsUrl: string } & Record<string, unknown>) => Promise<RunnerHandle>;

/**
 * The agent runner (@crumbs/runner) is optional for the CLI: `npm start` runs it when the package
 * exports `startRunner`, and runs the API alone otherwise.
 */
export async function loadStartRunner(): Promise<StartRunner | undefined> {
  const mod: Record<string, unknown> = await import("@crumbs/runner");
  return typeof mod.startRunner === "function" ? (mod.startRunner as StartRunner) : undefined;
}

/** The runner's own env parser when it has one (OPENAI_BASE_URL, keys...), else nothing extra. */
export async function loadRunnerEnv(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const mod: Record<string, unknown> = await import("@crumbs/runner");
  if (typeof mod.loadRunnerConfig !== "function") return {};
  return (mod.loadRunnerConfig as (env: NodeJS.ProcessEnv) => Record<string, unknown>)(env);
}
