// Network activity as a content script can see it: resource timing entries (fetch, XHR, scripts, images) are
// recorded when a request finishes. A script cannot see requests still in flight, so "idle" means the document
// has loaded and no request has finished for a while: close to Playwright's networkidle for pages that poll or
// load in bursts, blind to a single long request that has not finished yet.

let lastActivity = performance.now();
let observing = false;

function observe(): void {
  if (observing) return;
  observing = true;
  const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
  for (const e of entries) lastActivity = Math.max(lastActivity, e.responseEnd);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) lastActivity = Math.max(lastActivity, (e as PerformanceResourceTiming).responseEnd || performance.now());
  }).observe({ type: "resource", buffered: true });
}

/**
 * Milliseconds of quiet: since the last request finished or since `since` (the wait's start, so a request
 * fired just before the wait gets the quiet window to show up), whichever is later. 0 while loading.
 */
export function networkQuietFor(since: number): number {
  observe();
  if (document.readyState !== "complete") return 0;
  return performance.now() - Math.max(lastActivity, since);
}
