#!/usr/bin/env node
// The workspaces ship TypeScript sources; tsx compiles them on the fly so there is
// no separate build step between `git clone` and a running stack.
import { register } from "tsx/esm/api";
register();
const { main } = await import("../src/main.ts");
await main(process.argv.slice(2));
