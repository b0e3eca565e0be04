import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { CliError } from "./errors.ts";

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** The JSON in FILE, or on stdin when FILE is `-`. */
export async function readJsonInput(file: string, cwd: string, stdin: NodeJS.ReadableStream): Promise<unknown> {
  let text: string;
  try {
    text = file === "-" ? await readStream(stdin) : await readFile(resolve(cwd, file), "utf8");
  } catch (err) {
    throw new CliError("file_unreadable", `cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CliError("invalid_json", `${file === "-" ? "stdin" : file} is not JSON: ${(err as Error).message}`);
  }
}
