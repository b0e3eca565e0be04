import { z } from "zod";

// The error answer `{error, message, details?}` as zod, for the OpenAPI document and for clients
// that parse it; the types and the codes are in errors.ts.

export const errorIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  code: z.string(),
  message: z.string(),
});

export const errorDetailsSchema = z
  .strictObject({
    issues: z.array(errorIssueSchema).optional().describe("Every problem found in the input, each with the path to it"),
    limit: z
      .object({ name: z.string(), max: z.number(), unit: z.string() })
      .optional()
      .describe("The limit the request ran into"),
    current_version: z.number().int().optional().describe("version_mismatch: the version the breadcrumb is at now"),
    id: z.string().optional().describe("key_conflict: the breadcrumb that holds the key"),
    version: z.number().int().optional().describe("key_conflict: that breadcrumb's version"),
    scope: z.string().optional().describe("forbidden: the scope the token lacks"),
    allow: z.array(z.string()).optional().describe("method_not_allowed: the methods the path has"),
  })
  .describe("One shape for every error code: each field means one thing, absent fields are omitted");

export const errorBodySchema = z.object({
  error: z.string().describe("A stable code, e.g. version_mismatch"),
  message: z.string(),
  details: errorDetailsSchema.optional(),
});
