import { describe, expect, it } from "vitest";
import { citations, citedPath, missingPaths, pathPattern } from "./check-doc-paths.mjs";

const tracked = ["README.md", "package.json", "services/api/src/app.ts", "services/api/README.md", "docs/architecture.md", "extension/test/e2e-panel.test.ts"];
const roots = ["README.md", "package.json", "services/", "docs/", "extension/"];

describe("citations", () => {
  it("takes inline code tokens, fenced block tokens and link targets, with their lines", () => {
    const md = "See `services/api/src/app.ts` and [the map](docs/architecture.md).\n```sh\nnpx vitest run extension/test/x.test.ts\n```\n";
    expect(citations(md)).toEqual([
      { text: "services/api/src/app.ts", line: 1, kind: "code" },
      { text: "docs/architecture.md", line: 1, kind: "link" },
      { text: "npx", line: 3, kind: "code" },
      { text: "vitest", line: 3, kind: "code" },
      { text: "run", line: 3, kind: "code" },
      { text: "extension/test/x.test.ts", line: 3, kind: "code" },
    ]);
  });
});

describe("citedPath", () => {
  it("keeps tokens under a top-level folder or naming a root file, drops the rest", () => {
    expect(citedPath("services/api/src/app.ts:40", "code", ".", roots)).toBe("services/api/src/app.ts");
    expect(citedPath("package.json", "code", ".", roots)).toBe("package.json");
    expect(citedPath("src/app.ts", "code", "services/api", roots)).toBeUndefined();
    expect(citedPath("OPENAI_BASE_URL=http://x/v1", "code", ".", roots)).toBeUndefined();
    expect(citedPath("NATS_CREDS=extension/x.creds", "code", ".", roots)).toBe("extension/x.creds");
  });

  it("resolves links from the markdown file's folder and skips URLs and anchors", () => {
    expect(citedPath("../../docs/architecture.md#layers", "link", "services/api", roots)).toBe("docs/architecture.md");
    expect(citedPath("https://example.com/a", "link", ".", roots)).toBeUndefined();
    expect(citedPath("#layers", "link", ".", roots)).toBeUndefined();
  });
});

describe("pathPattern", () => {
  it("matches globs and placeholders over repository paths", () => {
    expect(pathPattern("extension/test/e2e-*.test.ts").test("extension/test/e2e-panel.test.ts")).toBe(true);
    expect(pathPattern("services/<name>/README.md").test("services/api/README.md")).toBe(true);
    expect(pathPattern("services/{api,cli}/src/app.ts").test("services/api/src/app.ts")).toBe(true);
    expect(pathPattern("extension/test/e2e-*.test.ts").test("extension/test/sub/e2e-panel.test.ts")).toBe(false);
  });
});

describe("missingPaths", () => {
  const exists = (p: string) => tracked.includes(p) || tracked.some((f) => f.startsWith(`${p}/`));
  it("lists each cited path that does not exist with its file and line", () => {
    const files = [
      { path: "README.md", text: "`services/api/src/app.ts`, `services/api/src/gone.ts`\n[a](docs/nope.md) `extension/test/e2e-*.test.ts`" },
      { path: "services/api/README.md", text: "[map](../../docs/architecture.md) `extension/test/none-*.ts`" },
    ];
    expect(missingPaths(files, tracked, exists)).toEqual([
      "README.md:1: services/api/src/gone.ts",
      "README.md:2: docs/nope.md",
      "services/api/README.md:1: extension/test/none-*.ts",
    ]);
  });
});
