import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** Where `crumbs start` keeps its state, relative to the directory it runs in. */
export const stateDir = (cwd: string) => join(cwd, ".crumbs");
const devTokenPath = (cwd: string) => join(stateDir(cwd), "dev-token");
/** The API URL `crumbs start` serves on, beside the dev token: client commands use it without CRUMBS_URL. */
export const apiUrlPath = (cwd: string) => join(stateDir(cwd), "api-url");

/** What `crumbs start` recorded in .crumbs/api-url of this directory, if anything. */
export async function readRecordedApiUrl(cwd: string): Promise<string | undefined> {
  const recorded = await readFile(apiUrlPath(cwd), "utf8").catch(() => "");
  return recorded.trim() || undefined;
}

/**
 * Kept after a stop, like the token: a client command then says the API at that URL is not
 * running, rather than silently asking the default port, which may be another stack's.
 */
export async function recordApiUrl(cwd: string, url: string): Promise<void> {
  await mkdir(stateDir(cwd), { recursive: true });
  await writeFile(apiUrlPath(cwd), `${url}\n`);
}

export async function readDevToken(cwd: string): Promise<string | undefined> {
  try {
    const token = (await readFile(devTokenPath(cwd), "utf8")).trim();
    return token || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The dev token survives restarts so that the extension's options and a user's shell keep
 * working after `npm start` runs again. Only the owner may read it: it is an admin token.
 */
export async function ensureDevToken(cwd: string): Promise<{ token: string; created: boolean }> {
  const existing = await readDevToken(cwd);
  if (existing) return { token: existing, created: false };
  const token = `crumbs_dev_${randomBytes(24).toString("base64url")}`;
  const path = devTokenPath(cwd);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${token}\n`, { mode: 0o600 });
  return { token, created: true };
}
