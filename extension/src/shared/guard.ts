import * as z from "@crumbs/schemas/zod-mini";
import { riskSchema } from "@crumbs/schemas/browser-action";

// What the worker tells a frame about an agent's write action: approvals, grants and where the
// agent may write. Light (zod only): the worker imports it too.

export const guardSchema = z.object({
  /** Risk kinds the user approved for this one action. */
  approved: z._default(z.array(z.string()), []),
  /** "Always allow" grants: kind per site. */
  grants: z._default(z.array(z.object({ site: z.string(), kind: z.string() })), []),
  /** The options page's host patterns; absent: only `sites`. */
  allowlist: z.optional(z.array(z.string())),
  /** Sites the task may write to when there is no allowlist: where it started, and where the user let it go. */
  sites: z._default(z.array(z.string()), []),
  requested: z.optional(riskSchema),
});
export type Guard = z.infer<typeof guardSchema>;
