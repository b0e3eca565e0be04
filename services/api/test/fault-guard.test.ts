import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const guardModule = fileURLToPath(new URL("../src/db/postgres/fault-guard.ts", import.meta.url));

/**
 * Runs `throwing` from a setImmediate (where the driver throws) in a child
 * Node with the guard installed: vitest's own uncaughtException handler would
 * otherwise see the error first.
 */
function runGuarded(throwing: string) {
  const script = `
    import { guardDriverFaults } from ${JSON.stringify(guardModule)};
    const unguard = guardDriverFaults({
      recover: () => console.log("recovered"),
      // The Logger shape of @crumbs/telemetry: the guard reports on error(fields, msg).
      log: { error: (fields, msg) => console.log("log:", msg), warn() {}, info() {}, debug() {}, child() { return this; } },
    });
    setImmediate(() => { ${throwing} });
    setTimeout(() => { console.log("still running"); unguard(); }, 100);
  `;
  return spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 20_000,
  });
}

describe("guardDriverFaults", () => {
  it("survives the driver's nextWrite TypeError and drops the connections", () => {
    const r = runGuarded(`
      const err = new TypeError("Cannot read properties of null (reading 'write')");
      err.stack = "TypeError: Cannot read properties of null (reading 'write')\\n    at Immediate.nextWrite (/app/node_modules/postgres/src/connection.js:255:22)";
      throw err;`);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("porsager/postgres#1154");
    expect(r.stdout).toContain("recovered");
    expect(r.stdout).toContain("still running");
  });

  it("keeps Node's default for anything else: printed, exit code 1", () => {
    const r = runGuarded(`throw new TypeError("an unrelated bug");`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("an unrelated bug");
    expect(r.stdout).not.toContain("recovered");
    expect(r.stdout).not.toContain("still running");
  });
});
