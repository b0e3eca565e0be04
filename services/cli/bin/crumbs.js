#!/usr/bin/env node
// The workspaces ship TypeScript sources; tsx compiles them on the fly so there is no separate
// build step between `git clone` and a running stack. `--help` and `--version` are answered
// before tsx is registered (src/commands/catalog.js says why).
import { topLevelAnswer } from "../src/commands/catalog.js";

const argv = process.argv.slice(2);
const answer = topLevelAnswer(argv[0]);
if (answer) {
  (answer.stream === "out" ? process.stdout : process.stderr).write(`${answer.text}\n`);
  process.exitCode = answer.code;
} else {
  const { register } = await import("tsx/esm/api");
  register();
  const { main } = await import("../src/main.ts");
  await main(argv);
}
