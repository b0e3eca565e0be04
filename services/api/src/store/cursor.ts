import { InvalidRequestError } from "../errors.ts";

/** Opaque to clients: base64url of a small JSON array. */
export function encodeCursor(parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

export function decodeCursor(cursor: string, shape: readonly ("string" | "number")[]): (string | number)[] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new InvalidRequestError("cursor is not one this API issued");
  }
  if (
    !Array.isArray(parts) ||
    parts.length !== shape.length ||
    parts.some((p, i) => typeof p !== shape[i])
  ) {
    throw new InvalidRequestError("cursor is not one this API issued");
  }
  return parts as (string | number)[];
}
