import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { API_ENV_VARS } from "@crumbs/api/testing";
import { RUNNER_ENV_VARS } from "@crumbs/runner/testing";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Every `env.NAME`, `env["NAME"]` and `process.env.NAME` in these shipped sources (folders or files). */
async function variablesReadIn(paths: string[]): Promise<Set<string>> {
  const files: string[] = [];
  for (const path of paths) {
    if (path.endsWith(".ts")) files.push(join(root, path));
    else {
      for (const entry of await readdir(join(root, path), { recursive: true, withFileTypes: true })) {
        if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) files.push(join(entry.parentPath, entry.name));
      }
    }
  }
  const found = new Set<string>();
  for (const file of files) {
    for (const m of (await readFile(file, "utf8")).matchAll(/\benv(?:\.|\[")([A-Z][A-Z0-9_]+)/g)) found.add(m[1]!);
  }
  return found;
}

describe(".env.example", () => {
  it("lists every variable the API, the runner, the CLI and the builds read, each with a comment above it", async () => {
    const text = await readFile(join(root, ".env.example"), "utf8");
    const lines = text.split("\n");
    const listed = new Map<string, number>();
    lines.forEach((line, i) => {
      const m = /^# ([A-Z][A-Z0-9_]+)=/.exec(line);
      if (m) listed.set(m[1]!, i);
    });
    const read = await variablesReadIn(["services/cli/src", "services/api/src", "agents/runner/src", "libs/telemetry/src", "extension/src", "extension/build.ts", "services/dashboard/build.ts"]);
    expect(read.has("CRUMBS_DEFAULT_AGENT")).toBe(true); // the scan sees what the CLI reads
    const wanted = new Set([...API_ENV_VARS, ...RUNNER_ENV_VARS, ...read, "TEST_PG_URL", "CHROMIUM_PATH"]);
    expect([...wanted].filter((v) => !listed.has(v)).sort()).toEqual([]);
    for (const [name, i] of listed) {
      // The line above is a comment that says something, or another variable of the same group.
      const above = lines[i - 1] ?? "";
      expect(/^# \S/.test(above), `${name}: ${above}`).toBe(true);
    }
    // Nothing is set by copying it: every assignment is commented out.
    expect(lines.filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l))).toEqual([]);
  });
});
