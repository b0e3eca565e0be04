import { z } from "zod";

// Params of the commands the worker runs itself (names as in @crumbs/schemas actionParamsSchemas).

const tabId = z.number().int().min(0);
const timeout = z.number().int().min(0).max(120_000).optional();

export const openParams = z.object({ url: z.string().min(1), tab_id: tabId.optional(), timeout_ms: timeout });
export const tabNewParams = z.object({ url: z.string().min(1).optional(), active: z.boolean().optional(), timeout_ms: timeout });
export const tabIdParams = z.object({ tab_id: tabId });
export const waitForUrlParams = z.object({
  until: z
    .object({
      url: z.string().min(1),
      selector: z.unknown().optional(),
      text: z.string().optional(),
      network_idle: z.boolean().optional(),
    })
    .loose(),
  timeout_ms: timeout,
  tab_id: tabId.optional(),
});

export const tabCommandSchema = z.object({
  type: z.string(),
  params: z.unknown().optional(),
  tab_id: tabId.optional(),
});
export type TabCommand = z.infer<typeof tabCommandSchema>;

