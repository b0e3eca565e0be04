/**
 * Apps bench: every held-out app task (bench/apps/tasks.ts) driven by the one fixed policy, once on the
 * extension's snapshot and actions, once on Playwright's page.ariaSnapshot({mode: "ai"}) and its aria-ref
 * locators, in the same browser. Counts tasks completed, actions and snapshot tokens read.
 * Prints a table and writes bench/results/apps.json.
 *   npm run bench:apps -w @crumbs/extension
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startHarness, type Harness } from "../test/harness.ts";
import { extensionEyes, playwrightEyes } from "./apps/eyes.ts";
import { runTask, type TaskResult } from "./apps/run-task.ts";
import { TASKS, type Task } from "./apps/tasks.ts";

const here = dirname(fileURLToPath(import.meta.url));
export const appsDir = join(here, "apps");

/** Runs one task on a fresh page of its app with the given side. */
export async function runOn(h: Harness, task: Task, side: "extension" | "playwright"): Promise<TaskResult> {
  const page = await h.openFixture(task.app);
  try {
    const eyes = side === "extension" ? extensionEyes(h) : playwrightEyes(page);
    return await runTask(eyes, task, () => page.evaluate((expr) => Boolean((0, eval)(expr)), task.check));
  } finally {
    await page.close();
  }
}

function sum(rows: TaskResult[], key: "actions" | "tokens" | "reads"): number {
  return rows.reduce((s, r) => s + r[key], 0);
}

async function main(): Promise<void> {
  const h = await startHarness({ fixtures: appsDir });
  const rows: { task: string; goal: string; extension: TaskResult; playwright: TaskResult }[] = [];
  try {
    for (const task of TASKS) {
      const extension = await runOn(h, task, "extension");
      const playwright = await runOn(h, task, "playwright");
      rows.push({ task: task.id, goal: task.goal, extension, playwright });
      const cell = (r: TaskResult) => `${r.done ? "done" : "FAIL"} ${r.actions} act ${r.tokens} tok`;
      console.log(`${task.id.padEnd(20)} ext ${cell(extension).padEnd(26)} pw ${cell(playwright)}`);
      for (const [side, r] of [["ext", extension], ["pw", playwright]] as const) if (r.failure) console.log(`  ${side}: ${r.failure}`);
    }
  } finally {
    await h.close();
  }
  const side = (k: "extension" | "playwright") => {
    const rs = rows.map((r) => r[k]);
    return { completed: rs.filter((r) => r.done).length, actions: sum(rs, "actions"), reads: sum(rs, "reads"), tokens: sum(rs, "tokens") };
  };
  const totals = { tasks: rows.length, extension: side("extension"), playwright: side("playwright") };
  console.log(`\ntasks ${totals.tasks}: extension ${totals.extension.completed} done, ${totals.extension.tokens} tokens, ${totals.extension.actions} actions; ` +
    `playwright ${totals.playwright.completed} done, ${totals.playwright.tokens} tokens, ${totals.playwright.actions} actions`);
  const out = join(here, "results", "apps.json");
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify({ at: new Date().toISOString(), playwright_mode: "ai", totals, rows }, null, 2)}\n`);
  console.log(`wrote ${out}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
