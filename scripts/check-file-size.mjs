// No source file over 300 lines: a file that grows past it holds more than one concept and is split
// into a folder of modules instead. `npm test` runs this (`npm run check:size`); it exits 1 listing each
// file over the limit, longest first. Measured: every tracked *.ts, *.tsx, *.js, *.mjs and *.cjs (and
// *.mts, *.cts), except tests (`*.test.*`, `*.spec.*`), fixtures (`*.fixture.*`, anything under a
// `fixtures/` or `*-fixtures/` folder), declarations (`*.d.ts`), the end-to-end test's static pages
// (`extension/test/e2e/pages/`), and generated files (`@generated`, or "generated" with "do not edit",
// in their first lines): their length follows the data they hold, not the code's design.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const MAX_LINES = 300;

/**
 * Files allowed over the limit for now, by path, each with why. Empty, and meant to stay so: a file
 * listed here is a split still owed.
 */
export const ALLOWED = new Map();

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** Whether a tracked path is source the limit applies to (by its path alone). */
export function isMeasured(path) {
  if (!SOURCE.test(path)) return false;
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (/\.d\.[mc]?ts$/.test(name)) return false;
  if (/\.(test|spec|fixture)\.[^.]+$/.test(name)) return false;
  if (
    path
      .split("/")
      .slice(0, -1)
      .some((dir) => dir === "fixtures" || dir.endsWith("-fixtures"))
  )
    return false;
  return !path.startsWith("extension/test/e2e/pages/");
}

/** Whether a file's first lines mark it as generated (its length is its data's, not its design's). */
export function isGenerated(text) {
  const head = text.split("\n", 5).join("\n");
  return /@generated\b/.test(head) || (/\bgenerated\b/i.test(head) && /\bdo not edit\b/i.test(head));
}

/** Lines as `wc -l` counts them for a file that ends with a newline; a last line without one counts too. */
export function lineCount(text) {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

/**
 * The files (`{ path, text }`) over `max` lines that are measured, not generated and not allowed, as
 * `path: N lines`, longest first.
 */
export function oversized(files, max = MAX_LINES, allowed = ALLOWED) {
  return files
    .filter((f) => isMeasured(f.path) && !allowed.has(f.path) && !isGenerated(f.text))
    .map((f) => ({ path: f.path, lines: lineCount(f.text) }))
    .filter((f) => f.lines > max)
    .sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path))
    .map((f) => `${f.path}: ${f.lines} lines`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  // Tracked files as they are in the work tree (a deleted one is skipped), so a split shows before it is committed.
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter(isMeasured);
  const files = [];
  for (const path of tracked) {
    try {
      files.push({ path, text: readFileSync(join(root, path), "utf8") });
    } catch {
      // Deleted in the work tree, not yet in the index: nothing to measure.
    }
  }
  const over = oversized(files);
  if (over.length) {
    console.error(
      `${over.length} source file(s) over ${MAX_LINES} lines; split each into modules of one concept:\n${over.join("\n")}`,
    );
    process.exit(1);
  }
  console.log(`file size: all ${files.length} source files are at most ${MAX_LINES} lines`);
}
