import * as z from "@crumbs/schemas/zod-mini";

// Params of the commands the worker runs itself (names as in @crumbs/schemas actionParamsSchemas).

const tabId = z.number().check(z.int(), z.gte(0));
const timeout = z.optional(z.number().check(z.int(), z.gte(0), z.lte(120_000)));

export const openParams = z.object({ url: z.string().check(z.minLength(1)), tab_id: z.optional(tabId), timeout_ms: timeout });
export const tabNewParams = z.object({ url: z.optional(z.string().check(z.minLength(1))), active: z.optional(z.boolean()), timeout_ms: timeout });
export const tabIdParams = z.object({ tab_id: tabId });
export const waitForUrlParams = z.object({
  until: z.looseObject({
    url: z.string().check(z.minLength(1)),
    selector: z.optional(z.unknown()),
    text: z.optional(z.string()),
    network_idle: z.optional(z.boolean()),
  }),
  timeout_ms: timeout,
  tab_id: z.optional(tabId),
});

export const tabCommandSchema = z.object({
  type: z.string(),
  params: z.optional(z.unknown()),
  tab_id: z.optional(tabId),
});
export type TabCommand = z.infer<typeof tabCommandSchema>;

