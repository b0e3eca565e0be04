import { z } from "zod";
import { pcdSchema } from "./pcd-schema.ts";

// browser.page.context.v1: the reference page context's fields (fixtures/page-context-example.ts)
// plus the text snapshot and the page capability descriptor (`pcd`, ./pcd-schema.ts). Only url,
// domain and title are required so the extension's first "Loading..." version is valid; the rest is
// typed when present.
// Every object is loose: extra fields are kept.

export const viewportSchema = z.looseObject({
  width: z.number(),
  height: z.number(),
  scrollX: z.number().optional(),
  scrollY: z.number().optional(),
  devicePixelRatio: z.number().optional(),
});

export const pageSnapshotSchema = z.looseObject({
  text: z.string().describe("The snapshot text, one line per node, refs like [ref=e12]"),
  refs: z.number().int().min(0).describe("How many refs the text holds"),
  truncated: z.boolean().optional(),
});

export const pageContextSchema = z.looseObject({
  url: z.string(),
  domain: z.string(),
  title: z.string(),
  favicon: z.string().optional(),
  viewport: viewportSchema.optional(),
  dom: z
    .looseObject({
      rootId: z.string().optional(),
      map: z.record(z.string(), z.unknown()).optional(),
      interactiveElements: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  content: z
    .looseObject({
      mainText: z.string().optional(),
      headings: z.array(z.string()).optional(),
      links: z.array(z.looseObject({ text: z.string().optional(), href: z.string() })).optional(),
      images: z.array(z.looseObject({ alt: z.string().optional(), src: z.string() })).optional(),
      forms: z.array(z.looseObject({})).optional(),
    })
    .optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  session: z
    .looseObject({
      extensionId: z.string().optional(),
      userId: z.string().optional(),
      capturedAt: z.string().optional(),
      tabId: z.number().optional(),
      windowId: z.number().optional(),
    })
    .optional(),
  snapshot: pageSnapshotSchema.optional(),
  pcd: z.optional(pcdSchema),
});
export type PageContext = z.infer<typeof pageContextSchema>;
