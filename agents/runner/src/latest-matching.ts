import type { Breadcrumb, CrumbsHttp } from "@crumbs/agent-sdk";

/** Lists are newest-updated first; a selector filtered in the API can give short pages, so keep paging. */
export async function latestMatching(http: CrumbsHttp, selector: unknown): Promise<Breadcrumb | undefined> {
  let cursor: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const page = await http.list({ selector, limit: 1, cursor });
    if (page.items[0]) return page.items[0];
    cursor = page.next_cursor ?? undefined;
    if (!cursor) return undefined;
  }
  return undefined;
}
