/** A selector typed by hand must be a JSON object before it goes to the API, which validates the rest. */
export function selectorError(s: string): string | undefined {
  if (!s.trim()) return undefined;
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? undefined : "the selector must be a JSON object";
  } catch (err) {
    return `the selector is not JSON: ${(err as Error).message}`;
  }
}
