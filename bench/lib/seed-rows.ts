import type { HttpClient } from "./http.ts";
import { pageContext, pageContextTags } from "./page-context.ts";

export interface Row {
  n: number;
  id: string;
  version: number;
}

/** Creates `count` living page-context breadcrumbs (one per fake extension) through the API. */
export async function createPageContexts(http: HttpClient, count: number, concurrency = 16): Promise<Row[]> {
  const rows: Row[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let n = next++; n < count; n = next++) {
        const b = await http.json<{ id: string; version: number }>("POST", "/v1/breadcrumbs", 201, {
          body: {
            schema_name: "browser.page.context.v1",
            title: `RCRT Documentation ${n}`,
            tags: pageContextTags(n),
            key: `browser.page.context:bench${String(n).padStart(4, "0")}`,
            context: pageContext(n, 1),
          },
        });
        rows[n] = { n, id: b.id, version: b.version };
      }
    }),
  );
  return rows;
}
