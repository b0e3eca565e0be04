import { createHash } from "node:crypto";
import type { Context } from "hono";
import { JsonText } from "../store/index.ts";

// Conditional reads (RFC 9110, 13.1.2): a GET with If-None-Match naming the current ETag answers
// 304 without a body. The comparison is weak (W/"x" matches "x"), as the RFC asks for GET.

const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  const mine = opaque(etag);
  return header.split(",").some((t) => opaque(t) === mine);
}

/** A weak ETag of a representation that has no version of its own (a list page, an llm view). */
export const contentEtag = (text: string | Uint8Array) => `W/"${createHash("sha1").update(text).digest("base64url")}"`;

/**
 * Answers `body` as JSON (JsonText, or UTF-8 JSON bytes: sent as they are) with `etag` (a hash of the JSON when absent), or 304
 * when the request's If-None-Match names it. `private, no-cache`: a browser may keep it but asks again each time.
 */
export function conditionalJson(c: Context, body: unknown, etag?: string): Response {
  // Bytes built by the API (Buffer.concat) never sit on a SharedArrayBuffer.
  const text = body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : body instanceof JsonText ? body.text : JSON.stringify(body);
  const tag = etag ?? contentEtag(text);
  c.header("ETag", tag);
  c.header("Cache-Control", "private, no-cache");
  if (ifNoneMatchHits(c.req.header("if-none-match"), tag)) return c.body(null, 304);
  return c.body(text, 200, { "Content-Type": "application/json" });
}
