import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness.ts";
import { appsDir, runOn } from "../bench/apps-bench.ts";
import { TASKS } from "../bench/apps/tasks.ts";

// Every held-out app task (bench/apps/tasks.ts: a mail client, a wallet, account settings, invoicing, an
// issue tracker, clinical records) done by the bench's fixed policy on the extension's snapshot and
// actions: a task that breaks here is one the extension's eyes or hands stopped managing. The apps are
// not read by any other test, and no rule of the extension names them.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ fixtures: appsDir });
});
afterAll(async () => {
  await h?.close();
});

describe("held-out app tasks on the extension's snapshot and actions", () => {
  it.each(TASKS.map((t) => [t.id, t] as const))("%s", async (_id, task) => {
    const result = await runOn(h, task, "extension");
    expect(result.failure, task.goal).toBeUndefined();
    expect(result.done).toBe(true);
  });
});
