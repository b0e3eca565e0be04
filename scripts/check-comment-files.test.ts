import { describe, expect, it } from "vitest";
import { comments, namedFiles, staleNames } from "./check-comment-files.mjs";

describe("comments", () => {
  it("finds line and block comments with their lines, not comment-like text in strings, templates or regexes", () => {
    const src = [
      'const url = "http://example.com/x.ts"; // the relay (relay.ts)',
      "const re = /\\/\\/ not-a-comment.ts/;",
      "const t = `a ${b /* inside */} // still a template`;",
      "/**",
      " * Block: store/write.ts",
      " */",
      "const d = a / b / c; // after a division",
    ].join("\n");
    expect(comments(src).map((c) => ({ line: c.line, text: c.text.trim() }))).toEqual([
      { line: 1, text: "the relay (relay.ts)" },
      { line: 3, text: "inside" },
      { line: 4, text: "*\n * Block: store/write.ts" },
      { line: 7, text: "after a division" },
    ]);
  });
});

describe("namedFiles", () => {
  it("takes file names and paths ending in a source extension, skipping globs, placeholders and bare extensions", () => {
    expect(namedFiles(" the relay thread (relay-worker.ts), see store/owner-order.ts; `./x.mjs`")).toEqual([
      "relay-worker.ts",
      "store/owner-order.ts",
      "x.mjs",
    ]);
    expect(namedFiles(" every *.test.ts, each <name>.ts, any .ts file, e2e-{a,b}.ts")).toEqual([]);
  });
});

describe("staleNames", () => {
  const tracked = ["services/api/src/outbox/relay.ts", "services/api/src/store/owner-order.ts", "README.md"];
  it("lists each comment that names a file no tracked path has, with its file and line", () => {
    const files = [
      {
        path: "services/api/src/outbox/relay-wake.ts",
        text: "// See relay.ts and store/owner-order.ts.\nconst x = 1;\n/* Was in action-loop.ts, then outbox/owner-order.ts */\n",
      },
    ];
    expect(staleNames(files, tracked)).toEqual([
      "services/api/src/outbox/relay-wake.ts:3: action-loop.ts",
      "services/api/src/outbox/relay-wake.ts:3: outbox/owner-order.ts",
    ]);
  });
});
