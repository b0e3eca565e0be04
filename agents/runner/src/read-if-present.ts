import { ApiResponseError, type Breadcrumb, type CrumbsHttp } from "@crumbs/agent-sdk";

/**
 * A breadcrumb, or undefined when the API says it is not there (404) or not this key's to read (403):
 * an action or task that was deleted, expired or belongs elsewhere is skipped, not retried. Any other
 * failure (5xx, a network error) is thrown, so the caller's message is delivered again later rather
 * than taken for "gone".
 */
export async function readIfPresent(http: CrumbsHttp, id: string): Promise<Breadcrumb | undefined> {
  try {
    return await http.get(id);
  } catch (err) {
    if (err instanceof ApiResponseError && (err.status === 404 || err.status === 403)) return undefined;
    throw err;
  }
}
