/**
 * Where a Node process's CPU went, by kind of work, from the `.cpuprofile` files `node --cpu-prof`
 * writes (one per thread): each sample goes to the first rule below that any frame of its stack
 * matches, so "postgres-js" is all the time in or under the driver's code (its socket writes too),
 * whoever called it, and "node:http" only what no other rule takes (every request's stack starts
 * in node:http). Used on the API of the write-path bench:
 *
 *   BENCH_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench -- --only write-path
 *   cd bench && node --import tsx tools/profile-split.ts /tmp/prof [PATCHes]
 *
 * With the number of PATCHes the process served, it prints ms per PATCH beside each share.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** In priority order: a sample goes to the first rule any frame of its stack matches. */
const RULES: [string, (f: Node["callFrame"]) => boolean][] = [
  ["garbage collector", (f) => f.functionName === "(garbage collector)"],
  ["idle", (f) => f.functionName === "(idle)"],
  ["(program): V8 and libuv outside JS", (f) => f.functionName === "(program)"],
  ["postgres-js", (f) => f.url.includes("/node_modules/postgres/")],
  ["nats.js", (f) => f.url.includes("/node_modules/nats/") || f.url.includes("/node_modules/@nats-io/")],
  ["SQL building (drizzle)", (f) => f.url.includes("/node_modules/drizzle-orm/")],
  ["logging, metrics", (f) => /\/(pino|prom-client|@opentelemetry)\/|\/telemetry\/|access-log|metrics\.ts/.test(f.url)],
  ["relay, outbox (own code)", (f) => /\/src\/outbox\//.test(f.url)],
  ["auth, limits", (f) => /\/http\/(auth|principal|rate-limit)[^/]*\.ts|\/src\/limits\/|\/src\/keys\//.test(f.url)],
  ["merge patch, changed keys", (f) => /merge-patch/.test(f.url)],
  ["validation (zod, schema check)", (f) => /\/node_modules\/zod\/|\/validate-write\.ts|write-schema-guard|json-depth/.test(f.url)],
  ["body read + JSON.parse", (f) => f.functionName === "JSON.parse" || /json-body\.ts/.test(f.url)],
  ["store (statement, results)", (f) => /\/src\/store\//.test(f.url)],
  ["Hono, routes, conditional", (f) => /\/node_modules\/(hono|@hono)\//.test(f.url) || /\/src\/http\//.test(f.url)],
  ["tsx, module loading", (f) => /\/node_modules\/(tsx|esbuild)\//.test(f.url) || /^node:internal\/modules\//.test(f.url)],
  ["node:http, net, streams", (f) => /^node:/.test(f.url)],
];

const dir = process.argv[2];
const patches = Number(process.argv[3] ?? NaN);
if (!dir) throw new Error("usage: profile-split.ts <dir of .cpuprofile files> [PATCHes]");

for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort()) {
  const p = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const categoryOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = categoryOf.get(id);
    if (known) return known;
    let best = RULES.length;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const i = RULES.findIndex(([, test]) => test(frame));
      if (i >= 0 && i < best) best = i;
    }
    const cat = RULES[best]?.[0] ?? "other JS";
    categoryOf.set(id, cat);
    return cat;
  };
  const totals = new Map<string, number>();
  p.samples.forEach((id, i) => totals.set(classify(id), (totals.get(classify(id)) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const busy = [...totals].filter(([c]) => c !== "idle").reduce((n, [, ms]) => n + ms, 0);
  console.log(`\n${file}: ${busy.toFixed(0)} ms sampled busy (idle ${(totals.get("idle") ?? 0).toFixed(0)} ms)`);
  console.log(`| work | ms | share |${Number.isFinite(patches) ? " ms per PATCH |" : ""}`);
  console.log(`| --- | --- | --- |${Number.isFinite(patches) ? " --- |" : ""}`);
  for (const [cat, ms] of [...totals].filter(([c]) => c !== "idle").sort((a, b) => b[1] - a[1])) {
    const per = Number.isFinite(patches) ? ` ${(ms / patches).toFixed(4)} |` : "";
    console.log(`| ${cat} | ${ms.toFixed(0)} | ${((100 * ms) / busy).toFixed(1)}% |${per}`);
  }
}
