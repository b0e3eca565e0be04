// Every repository path a tracked markdown file cites must exist, so a move or a rename cannot leave the
// docs pointing at nothing. `npm test` runs it (`npm run check:docs`); it exits 1 listing each missing path.
// A cited path is, in inline code, a fenced block or a link target: a token that starts with a top-level
// folder of the repository (`services/api/src/http/app.ts`) or names a root file (`docker-compose.yml`); links
// are resolved from the file that holds them. `*`, `**`, `{a,b}` and `<placeholder>` match like globs.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";

/** The inline code spans, fenced blocks and link targets of a markdown text, each with its line (1-based). */
export function citations(markdown) {
  const found = [];
  const lines = markdown.split("\n");
  let fence = false;
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fence = !fence;
      return;
    }
    const at = i + 1;
    if (fence) {
      for (const token of line.split(/\s+/)) found.push({ text: token, line: at, kind: "code" });
      return;
    }
    for (const m of line.matchAll(/`([^`]+)`/g)) for (const token of m[1].split(/\s+/)) found.push({ text: token, line: at, kind: "code" });
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ text: m[1], line: at, kind: "link" });
  });
  return found;
}

/**
 * The repository path a token cites, or undefined when it cites none: `roots` are the top-level names
 * (folders end in `/`). Quotes, trailing punctuation, `:line` and `#anchor` are dropped; a link is taken
 * from `from` (the markdown file's folder), inline code from the repository root.
 */
export function citedPath(token, kind, from, roots) {
  let t = token.replace(/^["'(]+|["'),;.:]+$/g, "");
  if (kind === "link") {
    if (/^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith("#")) return undefined;
    t = t.replace(/#.*$/, "");
    if (!t) return undefined;
    const path = posix.normalize(posix.join(from, t));
    return path.startsWith("..") ? undefined : path.replace(/\/$/, "") || ".";
  }
  t = t.replace(/^\.\//, "").replace(/#.*$/, "").replace(/:\d+(-\d+)?$/, "");
  if (t.includes("=") || t.includes("://")) t = t.slice(t.lastIndexOf("=") + 1);
  const isRoot = roots.some((r) => (r.endsWith("/") ? t.startsWith(r) : t === r));
  return isRoot ? t.replace(/\/$/, "") : undefined;
}

/** A cited path as a regular expression over repository paths (globs and placeholders matched). */
export function pathPattern(path) {
  let re = "";
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === "*" && path[i + 1] === "*") {
      re += ".*";
      i++;
    } else if (c === "*") re += "[^/]*";
    else if (c === "<") {
      const end = path.indexOf(">", i);
      if (end < 0) re += "<";
      else {
        re += "[^/]+";
        i = end;
      }
    } else if (c === "{") {
      const end = path.indexOf("}", i);
      if (end < 0) re += "\\{";
      else {
        re += `(${path.slice(i + 1, end).split(",").map(escapeRegex).join("|")})`;
        i = end;
      }
    } else re += escapeRegex(c);
  }
  return new RegExp(`^${re}(/.*)?$`);
}

const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The cited paths of `files` (`{ path, text }`) that match nothing in `exists` (a path -> boolean for plain
 * paths) nor in `tracked` (every tracked file, for globs), as `file:line: path`.
 */
export function missingPaths(files, tracked, exists) {
  const roots = [...new Set(tracked.map((f) => (f.includes("/") ? `${f.split("/")[0]}/` : f)))];
  const missing = [];
  for (const { path: file, text } of files) {
    for (const c of citations(text)) {
      const cited = citedPath(c.text, c.kind, posix.dirname(file), roots);
      if (cited === undefined) continue;
      const ok = /[*<{]/.test(cited) ? tracked.some((f) => pathPattern(cited).test(f)) : exists(cited);
      if (!ok) missing.push(`${file}:${c.line}: ${cited}`);
    }
  }
  return missing;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const { readFileSync } = await import("node:fs");
  const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
  const files = tracked.filter((f) => f.endsWith(".md")).map((path) => ({ path, text: readFileSync(join(root, path), "utf8") }));
  // An output the repository ignores (bench/results/latest.json) is cited before anything wrote it.
  const ignored = (p) => {
    try {
      execFileSync("git", ["check-ignore", "-q", "--no-index", p], { cwd: root });
      return true;
    } catch {
      return false;
    }
  };
  const missing = missingPaths(files, tracked, (p) => existsSync(join(root, p)) || ignored(p));
  if (missing.length) {
    console.error(`${missing.length} path(s) cited in markdown do not exist:\n${missing.join("\n")}`);
    process.exit(1);
  }
  console.log(`markdown paths: every path cited in ${files.length} files exists`);
}
