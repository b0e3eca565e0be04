#!/usr/bin/env node
// Applies patches/<package>+<version>.patch (git diffs, patch-package's format) to node_modules.
// Runs as the root `postinstall` and in the Docker image, which installs with --ignore-scripts and
// without dev dependencies: hence plain Node and no patch-package. Idempotent: a hunk already in
// place is left alone; a hunk that matches neither way, or another installed version, fails the
// install, so a dependency bump cannot silently drop a fix. `--reverse` takes the patches out
// (to see a regression test fail on the unpatched driver).
import { readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const reverse = process.argv.includes("--reverse");
const patchDir = join(root, "patches");

/** Each file of a git diff with its hunks as [old lines, new lines]. */
function parse(text) {
  const files = [];
  for (const part of text.split(/^diff --git /m).slice(1)) {
    const path = /^\+\+\+ b\/(.+)$/m.exec(part)?.[1];
    if (!path) throw new Error(`no target file in a diff of ${part.split("\n")[0]}`);
    const hunks = [];
    for (const h of part.split(/^@@[^\n]*@@[^\n]*\n/m).slice(1)) {
      const before = [];
      const after = [];
      for (const line of h.split("\n")) {
        if (line.startsWith("\\")) continue;
        const body = line.slice(1);
        if (line.startsWith(" ")) {
          before.push(body);
          after.push(body);
        } else if (line.startsWith("-")) before.push(body);
        else if (line.startsWith("+")) after.push(body);
      }
      hunks.push([before.join("\n"), after.join("\n")]);
    }
    files.push({ path, hunks });
  }
  return files;
}

let failed = false;
for (const name of existsSync(patchDir) ? readdirSync(patchDir).filter((f) => f.endsWith(".patch")) : []) {
  const [, pkg, version] = /^(.+)\+([^+]+)\.patch$/.exec(name.replaceAll("++", "/")) ?? [];
  const manifest = join(root, "node_modules", pkg ?? "", "package.json");
  if (!pkg || !existsSync(manifest)) {
    console.log(`patches: ${name}: ${pkg ?? name} is not installed here, skipped`);
    continue;
  }
  const installed = JSON.parse(readFileSync(manifest, "utf8")).version;
  if (installed !== version) {
    console.error(`patches: ${name} is for ${pkg} ${version} but ${installed} is installed: check the fix upstream, then remake or delete the patch`);
    failed = true;
    continue;
  }
  for (const { path, hunks } of parse(readFileSync(join(patchDir, name), "utf8"))) {
    const file = join(root, path);
    let text = readFileSync(file, "utf8");
    for (const [before, after] of hunks) {
      const [from, to] = reverse ? [after, before] : [before, after];
      if (text.includes(from) && !text.includes(to)) text = text.replace(from, to);
      else if (!text.includes(to)) {
        console.error(`patches: ${name}: a hunk of ${path} does not match the installed file`);
        failed = true;
      }
    }
    writeFileSync(file, text);
  }
  console.log(`patches: ${name} ${reverse ? "reversed" : "applied"}`);
}
process.exitCode = failed ? 1 : 0;
