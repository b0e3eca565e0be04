import { z } from "zod";
import { riskSchema } from "@crumbs/schemas/browser-action";

// What the worker tells a frame about an agent's write action: approvals, grants and where the
// agent may write. Light (zod only): the worker imports it too.

export const guardSchema = z.object({
  /** Risk kinds the user approved for this one action. */
  approved: z.array(z.string()).default([]),
  /** "Always allow" grants: kind per site. */
  grants: z.array(z.object({ site: z.string(), kind: z.string() })).default([]),
  /** The options page's host patterns; absent: only `sites`. */
  allowlist: z.array(z.string()).optional(),
  /** Sites the task may write to when there is no allowlist: where it started, and where the user let it go. */
  sites: z.array(z.string()).default([]),
  requested: riskSchema.optional(),
});
export type Guard = z.infer<typeof guardSchema>;
