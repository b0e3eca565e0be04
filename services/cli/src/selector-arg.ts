import { UsageError } from "./errors.ts";

/**
 * `--selector` is sent to the API as given (the API validates it with the shared engine and answers
 * 422 invalid_selector); here we only make sure it is a JSON object so typos fail before any request.
 */
export function parseSelectorArg(text: string | undefined): object | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--selector is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`--selector must be a JSON object, e.g. '{"schema_name":"browser.page.context.v1"}'`);
  }
  return value;
}
