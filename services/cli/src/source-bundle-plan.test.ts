import { describe, expect, it } from "vitest";
import { packageOf, servedCommands, staysExternal, stillFresh, type BundleMetafile } from "./source-bundle-plan.js";

describe("packageOf and staysExternal", () => {
  it("names the package of a bare import, nothing for a path", () => {
    expect(packageOf("nats")).toBe("nats");
    expect(packageOf("zod/mini")).toBe("zod");
    expect(packageOf("@crumbs/schemas/nats-names")).toBe("@crumbs/schemas");
    expect(packageOf("./args.ts")).toBeUndefined();
    expect(packageOf("/abs/file.js")).toBeUndefined();
    expect(packageOf("node:fs")).toBeUndefined();
  });

  it("bundles the pure workspace packages and leaves the rest to Node", () => {
    expect(staysExternal("@crumbs/schemas")).toBe(false);
    expect(staysExternal("@crumbs/agent-sdk/http")).toBe(false);
    expect(staysExternal("@crumbs/api")).toBe(true);
    expect(staysExternal("nats")).toBe(true);
    expect(staysExternal("./main.ts")).toBe(false);
  });
});

describe("servedCommands", () => {
  const imp = (path: string, kind = "import-statement", external = false) => ({ path, kind, external });
  const metafile: BundleMetafile = {
    outputs: {
      "out/main.js": { entryPoint: "src/main.ts", imports: [imp("out/chunk-a.js"), imp("out/replay.js", "dynamic-import"), imp("out/start.js", "dynamic-import"), imp("nats", "import-statement", true)] },
      "out/chunk-a.js": { imports: [imp("zod", "import-statement", true)] },
      "out/replay.js": { entryPoint: "src/commands/replay.ts", imports: [imp("out/chunk-a.js")] },
      // start reaches the API (TypeScript, left out of the bundle) through a shared chunk, lazily.
      "out/start.js": { entryPoint: "src/commands/start.ts", imports: [imp("out/chunk-b.js", "dynamic-import")] },
      "out/chunk-b.js": { imports: [imp("@crumbs/api", "import-statement", true)] },
      "out/list.js": { entryPoint: "src/commands/list.ts", imports: [imp("./x.ts", "import-statement", true)] },
    },
  };

  it("serves the commands whose code never reaches TypeScript", () => {
    expect(servedCommands(metafile, "out/main.js", "src/commands")).toEqual(["replay"]);
  });

  it("serves none when the entry's own code reaches TypeScript", () => {
    const entryNeedsTs: BundleMetafile = { outputs: { ...metafile.outputs, "out/chunk-a.js": { imports: [imp("@crumbs/telemetry", "import-statement", true)] } } };
    expect(servedCommands(entryNeedsTs, "out/main.js", "src/commands")).toEqual([]);
  });
});

describe("stillFresh", () => {
  const stats: Record<string, { mtimeMs: number; size: number }> = { "/a.ts": { mtimeMs: 1, size: 10 }, "/b.ts": { mtimeMs: 2, size: 20 } };
  const statOf = (p: string) => stats[p];

  it("is fresh while every input keeps its time and size", () => {
    expect(stillFresh([["/a.ts", 1, 10], ["/b.ts", 2, 20]], statOf)).toBe(true);
  });

  it("is stale when a file changed, went away, or nothing was recorded", () => {
    expect(stillFresh([["/a.ts", 1, 11]], statOf)).toBe(false);
    expect(stillFresh([["/a.ts", 0, 10]], statOf)).toBe(false);
    expect(stillFresh([["/gone.ts", 1, 1]], statOf)).toBe(false);
    expect(stillFresh([], statOf)).toBe(false);
  });
});
