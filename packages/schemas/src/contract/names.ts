import { z } from "zod";

// Names end up as NATS subject tokens, so each grammar excludes `.`-breaking, wildcard and
// whitespace characters where a token must stay one token.
export const SCHEMA_NAME_PATTERN = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.v[0-9]+$/;
export const OWNER_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const TAG_PATTERN = /^[^\s\p{Cc}]+$/u;

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
