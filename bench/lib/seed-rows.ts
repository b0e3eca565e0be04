import type { HttpClient } from "./http.ts";
import { pageContext, pageContextTags } from "./page-context.ts";

export interface Row {
  n: number;
  id: string;
  version: number;
}

/**
 * Creates `count` living page-context breadcrumbs (one per fake extension) through the API.
 * The i-th gets the row number `numberOf(i)` (default i), which names its extension and content.
 */
export async function createPageContexts(
  http: HttpClient,
  count: number,
  concurrency = 16,
  numberOf: (i: number) => number = (i) => i,
): Promise<Row[]> {
  const rows: Row[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const n = numberOf(i);
        const b = await http.json<{ id: string; version: number }>("POST", "/v1/breadcrumbs", 201, {
          body: {
            schema_name: "browser.page.context.v1",
            title: `RCRT Documentation ${n}`,
            tags: pageContextTags(n),
            key: `browser.page.context:bench${String(n).padStart(4, "0")}`,
            context: pageContext(n, 1),
          },
        });
        rows[i] = { n, id: b.id, version: b.version };
      }
    }),
  );
  return rows;
}
