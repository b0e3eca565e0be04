// Every source file a code comment names must exist somewhere in the repository, so a move or a
// rename cannot leave a why-comment sending the reader to a file that is gone (as check-doc-paths.mjs
// does for markdown). `npm run check:docs` runs it; it exits 1 listing each comment that names nothing.
// A named file is a token in a comment that ends in .ts, .tsx, .mts, .cts, .mjs or .cjs: a bare name
// (`relay.ts`) must be some tracked file's name, a path (`outbox/relay.ts`) the end of some tracked
// file's path. Globs and placeholders (`*.test.ts`, `<name>.ts`) name a kind of file, not one, and
// are skipped.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** What may come right before a `/` that starts a regular expression literal rather than a division. */
const BEFORE_REGEX = new Set(["", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "*", "%", "<", ">", "~", "^"]);

/**
 * The comments of a JavaScript or TypeScript source, each with the line it starts on (1-based).
 * Strings, template literals and regular expression literals are skipped, so `"http://x"` or
 * `/\/\//` is not taken for a comment.
 */
export function comments(source) {
  const found = [];
  let line = 1;
  let i = 0;
  /** The last character of code seen that was not whitespace, to tell a regex from a division. */
  let last = "";
  /** Open `${` of template literals: the brace depth at which each one closes. */
  const templates = [];
  let depth = 0;
  const n = source.length;
  const advance = (to) => {
    for (; i < to; i++) if (source[i] === "\n") line++;
  };
  const skipString = (quote) => {
    let j = i + 1;
    while (j < n && source[j] !== quote && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
    advance(Math.min(n, j + 1));
  };
  const skipTemplate = () => {
    // From just after a backtick (or a closing `}` of `${`) to the closing backtick or the next `${`.
    let j = i;
    while (j < n && source[j] !== "`") {
      if (source[j] === "\\") j += 2;
      else if (source[j] === "$" && source[j + 1] === "{") {
        advance(j + 2);
        templates.push(depth);
        depth++;
        return;
      } else j++;
    }
    advance(Math.min(n, j + 1));
  };
  while (i < n) {
    const c = source[i];
    if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? n : end;
      found.push({ text: source.slice(i + 2, stop), line });
      advance(stop);
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end;
      found.push({ text: source.slice(i + 2, stop), line });
      advance(Math.min(n, stop + 2));
      continue;
    } else if (c === '"' || c === "'") {
      skipString(c);
      last = c;
    } else if (c === "`") {
      i++;
      skipTemplate();
      last = "`";
    } else if (c === "/" && BEFORE_REGEX.has(last)) {
      let j = i + 1;
      let inClass = false;
      while (j < n && source[j] !== "\n" && (inClass || source[j] !== "/")) {
        if (source[j] === "\\") j++;
        else if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j++;
      }
      advance(Math.min(n, j + 1));
      last = "/regex";
    } else {
      if (c === "{") depth++;
      else if (c === "}") {
        depth--;
        if (templates.length > 0 && templates[templates.length - 1] === depth) {
          templates.pop();
          i++;
          skipTemplate();
          last = "`";
          continue;
        }
      }
      if (!/\s/.test(c)) last = /[\w$)\]]/.test(c) ? "word" : c;
      advance(i + 1);
    }
  }
  return found;
}

const SOURCE = /\.(ts|tsx|mts|cts|mjs|cjs)$/;

/** The file names or paths a comment's text names: tokens ending in a source extension, globs skipped. */
export function namedFiles(text) {
  const names = [];
  for (const m of text.matchAll(/[\w@./*<>{}-]+\.(?:ts|tsx|mts|cts|mjs|cjs)\b/g)) {
    const token = m[0].replace(/^\.\//, "");
    if (/[*<>{}]/.test(token)) continue;
    // A property or call in prose (`relay.ts.length`) is not a file; a leading `.` (`.ts`) is an extension.
    if (token.startsWith(".") || text[m.index + m[0].length] === "(") continue;
    names.push(token);
  }
  return names;
}

/**
 * The comments of `files` (`{ path, text }`) that name a source file no tracked path has, as
 * `file:line: name`. `tracked` is every tracked path.
 */
export function staleNames(files, tracked) {
  const basenames = new Set(tracked.map((f) => f.slice(f.lastIndexOf("/") + 1)));
  const exists = (name) => (name.includes("/") ? tracked.some((f) => f === name || f.endsWith(`/${name}`)) : basenames.has(name));
  const stale = [];
  for (const { path, text } of files) {
    for (const c of comments(text)) {
      for (const name of namedFiles(c.text)) if (!exists(name)) stale.push(`${path}:${c.line}: ${name}`);
    }
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
  const files = tracked.filter((f) => SOURCE.test(f)).map((path) => ({ path, text: readFileSync(join(root, path), "utf8") }));
  const stale = staleNames(files, tracked);
  if (stale.length) {
    console.error(`${stale.length} comment(s) name a file that exists nowhere in the repository:\n${stale.join("\n")}`);
    process.exit(1);
  }
  console.log(`comment file names: every file named in the comments of ${files.length} sources exists`);
}
