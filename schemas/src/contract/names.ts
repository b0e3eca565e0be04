import { z } from "zod";

// Names end up as NATS subject tokens, so each grammar excludes `.`-breaking, wildcard and
// whitespace characters where a token must stay one token.
export const SCHEMA_NAME_PATTERN = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.v[0-9]+$/;
export const OWNER_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
// No whitespace, no control character (\p{Cc} is exactly U+0000-U+001F and U+007F-U+009F), written
// without the `u` flag so the JSON Schema in the OpenAPI document carries the same pattern.
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const TAG_PATTERN = /^[^\s\x00-\x1f\x7f-\x9f]+$/;

export const schemaNameSchema = z
  .string()
  .max(200)
  .regex(SCHEMA_NAME_PATTERN, "dotted lowercase name ending in a version, e.g. browser.page.context.v1")
  .describe("Dotted schema name ending in a version, e.g. browser.page.context.v1");

export const ownerSchema = z
  .string()
  .regex(OWNER_PATTERN, "1-64 characters of A-Z a-z 0-9 _ -")
  .describe("Owner name, safe as one NATS subject token");

export const tagSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(TAG_PATTERN, "a tag has no whitespace or control characters")
  .describe("A tag such as browser:context or url:github.com");

export const isoTimeSchema = z.iso.datetime({ offset: true });
